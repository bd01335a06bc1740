import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react'
import type { ApprovalActionKind } from './approval-actions'
import { decideApprovalKey, keyTarget, SHORTCUT_ARM_DELAY_MS } from './approval-key-policy'
import { isTypingIn } from './typing-focus'

interface CardEntry {
  act(kind: ApprovalActionKind): void
  element(): HTMLElement | null
}

export interface ApprovalKeys {
  /** The card 1–4 act on: the one the person picked, else the oldest waiting. */
  targetId: string | null
  armed: boolean
  /** The person chose this card (clicked or moved the focus into it): the keys follow. */
  pick(id: string): void
  register(id: string, entry: CardEntry): () => void
  /** An answer for this card is on its way (true) or was refused (false): meanwhile keys go to the next. */
  answering(id: string, sent: boolean): void
  /** The answer for a card came back: hand its focus on (see the layout effect). */
  answered(): void
  /** What the last key did not do, and why ("1 was not used: …"); null when nothing was refused. */
  refusal: string | null
  /** The focus is in a text field: 1–4 type there, and the card says so. */
  typing: boolean
}

const ApprovalKeysContext = createContext<ApprovalKeys | null>(null)

/**
 * One screen's cards answered by key (the inbox, a conversation's inline cards). `orderedIds` is
 * oldest first. The keys work wherever the focus is on this screen except in a text field, act on
 * the target card only once it is armed, and say so when a key arrived too early.
 */
export function ApprovalKeysScope({
  orderedIds,
  fallbackFocus,
  children,
}: {
  orderedIds: readonly string[]
  /** Where the focus goes when the last card is answered (never a text field, never the page's body). */
  fallbackFocus: () => HTMLElement | null
  children: ReactNode
}) {
  const cards = useRef(new Map<string, CardEntry>())
  const [picked, setPicked] = useState<string | null>(null)
  const [sent, setSent] = useState<ReadonlySet<string>>(new Set())
  const waiting = orderedIds.filter((id) => !sent.has(id))
  const targetId = keyTarget(waiting, picked)
  // The key handler reads these refs, not the last render: a second key in the same burst already
  // sees the card the first one answered as gone, and the next one as not armed.
  const state = useRef({ orderedIds, picked, sent: new Set<string>(), fallbackFocus })
  state.current.orderedIds = orderedIds
  state.current.picked = picked
  state.current.fallbackFocus = fallbackFocus
  const armedFor = useRef<{ id: string | null; at: number }>({ id: null, at: Number.POSITIVE_INFINITY })
  const [armed, setArmed] = useState(false)
  const [refusal, setRefusal] = useState<string | null>(null)
  const [typing, setTyping] = useState(() => isTypingIn(document.activeElement))

  const rearm = useCallback((id: string | null) => {
    armedFor.current = { id, at: performance.now() + SHORTCUT_ARM_DELAY_MS }
    setArmed(false)
  }, [])
  // A new target (or none) starts the delay again; so does coming back from another window, where
  // the first key may have been meant for something else.
  useLayoutEffect(() => {
    rearm(targetId)
    setRefusal(null)
  }, [targetId, rearm])
  useEffect(() => {
    const onFocus = () => rearm(armedFor.current.id)
    window.addEventListener('focus', onFocus)
    return () => window.removeEventListener('focus', onFocus)
  }, [rearm])
  useEffect(() => {
    if (armed || targetId === null) return
    const timer = window.setTimeout(
      () => setArmed(true),
      Math.max(0, armedFor.current.at - performance.now()),
    )
    return () => window.clearTimeout(timer)
  }, [armed, targetId])
  useEffect(() => {
    const update = () => setTyping(isTypingIn(document.activeElement))
    document.addEventListener('focusin', update)
    document.addEventListener('focusout', update)
    return () => {
      document.removeEventListener('focusin', update)
      document.removeEventListener('focusout', update)
    }
  }, [])

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const now = state.current
      const target = keyTarget(
        now.orderedIds.filter((id) => !now.sent.has(id)),
        now.picked,
      )
      // A target the last render has not armed yet (it just took over) is not armed.
      const armedAt = armedFor.current.id === target ? armedFor.current.at : Number.POSITIVE_INFINITY
      const outcome = decideApprovalKey(
        {
          key: event.key,
          repeat: event.repeat,
          altKey: event.altKey,
          ctrlKey: event.ctrlKey,
          metaKey: event.metaKey,
          defaultPrevented: event.defaultPrevented,
          typing: isTypingIn(document.activeElement),
          at: event.timeStamp,
        },
        target === null ? null : { id: target, armedAt },
      )
      if (outcome.kind === 'pass') return
      event.preventDefault()
      if (outcome.kind === 'early') {
        setRefusal(
          `${event.key} was not used: the keys wait ${SHORTCUT_ARM_DELAY_MS / 1000} s after a card appears or takes the place of another, so a key meant for something else never answers it. Press ${event.key} again.`,
        )
        return
      }
      setRefusal(null)
      cards.current.get(outcome.targetId)?.act(outcome.action)
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [])

  // The focus an answered card held goes to the next waiting card (else fallbackFocus), in the same
  // commit (a layout effect), so no key press finds it on the page's body in between. A card
  // answered here hands off once its answer is back (by then the command just allowed is known); one
  // answered elsewhere, as soon as it leaves. A focus the person put elsewhere stays where it is.
  const handOff = useRef(false)
  const previousIds = useRef<readonly string[]>(orderedIds)
  useLayoutEffect(() => {
    const leftElsewhere = previousIds.current.some(
      (id) => !orderedIds.includes(id) && !state.current.sent.has(id),
    )
    previousIds.current = orderedIds
    const due = handOff.current || leftElsewhere
    handOff.current = false
    const lost = document.activeElement === document.body || document.activeElement === null
    if (!due || !lost) return
    const next = targetId === null ? null : (cards.current.get(targetId)?.element() ?? null)
    ;(next ?? state.current.fallbackFocus())?.focus()
  })

  const pick = useCallback((id: string) => {
    state.current.picked = id
    setPicked(id)
  }, [])
  const register = useCallback((id: string, entry: CardEntry) => {
    cards.current.set(id, entry)
    return () => {
      if (cards.current.get(id) === entry) cards.current.delete(id)
    }
  }, [])
  const answered = useCallback(() => {
    handOff.current = true
  }, [])
  const answering = useCallback((id: string, isSent: boolean) => {
    const next = new Set(state.current.sent)
    if (isSent) next.add(id)
    else next.delete(id)
    state.current.sent = next
    setSent(next)
  }, [])

  const value = useMemo(
    () => ({ targetId, armed, pick, register, answering, answered, refusal, typing }),
    [targetId, armed, pick, register, answering, answered, refusal, typing],
  )
  return <ApprovalKeysContext.Provider value={value}>{children}</ApprovalKeysContext.Provider>
}

/** Null outside a scope: a card there has buttons only. */
export function useApprovalKeys(): ApprovalKeys | null {
  return useContext(ApprovalKeysContext)
}
