import { type RefObject, useEffect, useRef } from 'react'
import { type ApprovalActionKind, actionForKey } from './approval-actions'

/** Marks a card so shortcuts know which one the focus is in. */
export const APPROVAL_CARD_ATTRIBUTE = 'data-approval-card'

function isEditable(element: Element | null): boolean {
  if (!element) return false
  return (
    element instanceof HTMLInputElement ||
    element instanceof HTMLTextAreaElement ||
    element instanceof HTMLSelectElement ||
    (element instanceof HTMLElement && element.isContentEditable)
  )
}

/**
 * 1/2/3 act on the card that holds the focus, or on the first card when the focus is in none. Keys
 * typed into a field, held down (auto-repeat) or with a modifier never answer anything.
 */
export function useApprovalShortcuts(
  card: RefObject<HTMLElement | null>,
  isFirst: boolean,
  onAction: (kind: ApprovalActionKind) => void,
): void {
  const latest = useRef(onAction)
  latest.current = onAction
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.repeat || event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return
      const kind = actionForKey(event.key)
      if (!kind || isEditable(document.activeElement)) return
      const focusedCard = document.activeElement?.closest(`[${APPROVAL_CARD_ATTRIBUTE}]`) ?? null
      const mine = focusedCard ? focusedCard === card.current : isFirst
      if (!mine) return
      event.preventDefault()
      latest.current(kind)
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [card, isFirst])
}
