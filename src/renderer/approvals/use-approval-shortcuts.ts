import { type RefObject, useEffect, useRef, useState } from 'react'
import { type ApprovalActionKind, actionForKey } from './approval-actions'

/** Marks a card so shortcuts know which one the focus is in. */
export const APPROVAL_CARD_ATTRIBUTE = 'data-approval-card'

/**
 * A card ignores its keys this long after it receives the focus or becomes first, so a second "1"
 * typed right after answering one card never lands on the card that just took its place.
 */
export const SHORTCUT_ARM_DELAY_MS = 400

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
 * 1/2/3 act only on the card that holds the focus (the card itself or a control inside it), and only
 * once the card has held it for SHORTCUT_ARM_DELAY_MS. Keys typed into a field, held down
 * (auto-repeat) or with a modifier never answer anything. Returns whether the keys are armed, so the
 * card can say so (and tests can wait for it instead of sleeping).
 */
export function useApprovalShortcuts(
  card: RefObject<HTMLElement | null>,
  isFirst: boolean,
  onAction: (kind: ApprovalActionKind) => void,
): boolean {
  const latest = useRef(onAction)
  latest.current = onAction
  const [armed, setArmed] = useState(false)
  const armedRef = useRef(false)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)

  const rearm = useRef(() => {
    clearTimeout(timer.current)
    armedRef.current = false
    setArmed(false)
    timer.current = setTimeout(() => {
      armedRef.current = true
      setArmed(true)
    }, SHORTCUT_ARM_DELAY_MS)
  }).current

  // Becoming first changes which command sits where the eye (and the last key) was: start again.
  useEffect(() => {
    if (isFirst) rearm()
  }, [isFirst, rearm])

  useEffect(() => {
    const element = card.current
    if (!element) return
    const onFocusIn = (event: FocusEvent) => {
      // Moving between controls of the same card keeps it armed; arriving from outside does not.
      if (event.relatedTarget instanceof Node && element.contains(event.relatedTarget)) return
      rearm()
    }
    element.addEventListener('focusin', onFocusIn)
    return () => {
      element.removeEventListener('focusin', onFocusIn)
      clearTimeout(timer.current)
    }
  }, [card, rearm])

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.repeat || event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return
      const kind = actionForKey(event.key)
      if (!kind || isEditable(document.activeElement)) return
      const focusedCard = document.activeElement?.closest(`[${APPROVAL_CARD_ATTRIBUTE}]`) ?? null
      if (!focusedCard || focusedCard !== card.current) return
      // Swallow the key either way: an unarmed card must not pass it on to anything else.
      event.preventDefault()
      if (armedRef.current) latest.current(kind)
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [card])

  return armed
}

/** Marks where approval cards are answered together (the Approvals screen, a session's screen). */
export const APPROVAL_SCOPE_ATTRIBUTE = 'data-approval-scope'

/**
 * The element to give the focus to once `card` is answered: the next card in the same screen (in
 * document order, so inline cards nested in a session's history count too), else the one before,
 * else the screen's command box when it has one.
 */
export function nextApprovalCard(card: HTMLElement | null): HTMLElement | null {
  if (!card) return null
  const scope = card.closest(`[${APPROVAL_SCOPE_ATTRIBUTE}]`) ?? document.body
  const cards = [...scope.querySelectorAll<HTMLElement>(`[${APPROVAL_CARD_ATTRIBUTE}]`)]
  const at = cards.indexOf(card)
  const next = cards[at + 1] ?? cards[at - 1]
  if (next && next !== card) return next
  return scope.querySelector<HTMLElement>('[data-command-box]')
}
