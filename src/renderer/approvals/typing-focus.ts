/** Input types whose keys are text: a digit pressed there is typed, never an answer. */
const TEXT_INPUT_TYPES = new Set([
  'text',
  'search',
  'url',
  'tel',
  'email',
  'password',
  'number',
  'date',
  'datetime-local',
  'month',
  'time',
  'week',
])

/** The focus is somewhere keys become text (or a select's type-ahead): the inbox must not take them. */
export function isTypingIn(element: Element | null): boolean {
  if (!element) return false
  if (element instanceof HTMLInputElement) return TEXT_INPUT_TYPES.has(element.type)
  return (
    element instanceof HTMLTextAreaElement ||
    element instanceof HTMLSelectElement ||
    (element instanceof HTMLElement && element.isContentEditable)
  )
}
