import { SHORTCUT_ARM_DELAY_MS } from './approval-key-policy'
import type { ApprovalKeys } from './ApprovalKeys'

/**
 * On the card the keys act on: whether they are armed yet (a bar fills for the delay), why a key was
 * not used, and that keys go to the text field while the focus is in one. On other cards: how to
 * make them the one the keys answer.
 */
export function ApprovalKeysLine({
  keys,
  isTarget,
  network = false,
}: {
  keys: ApprovalKeys
  isTarget: boolean
  /** A connection's card: 2 saves a domain rule, and there is no message to send. */
  network?: boolean
}) {
  if (!isTarget)
    return <p className="keys-line muted">Click this card (or Tab to it) to answer it with 1–4.</p>
  const state = keys.typing ? 'typing' : keys.armed ? 'armed' : 'arming'
  return (
    <div className="keys-line" data-keys-state={state}>
      <p>
        {state === 'typing' &&
          'You are typing in a text field, so 1–4 go there. Click outside it (or Tab) to answer this card by key.'}
        {state === 'armed' && network && (
          <>
            Keys answer this card: <kbd>1</kbd> Allow once, <kbd>2</kbd> Always for this domain, <kbd>3</kbd>{' '}
            Deny.
          </>
        )}
        {state === 'armed' && !network && (
          <>
            Keys answer this card: <kbd>1</kbd> Allow once, <kbd>2</kbd> Always allow, <kbd>3</kbd> Deny,{' '}
            <kbd>4</kbd> Deny with a message.
          </>
        )}
        {state === 'arming' && 'Keys are ready in a moment…'}
      </p>
      {state === 'arming' && (
        // Fills in SHORTCUT_ARM_DELAY_MS (styles.css: .arming-bar).
        <span className="arming-bar" aria-hidden="true" data-delay-ms={SHORTCUT_ARM_DELAY_MS} />
      )}
      <p role="status" className="keys-refusal">
        {keys.refusal}
      </p>
    </div>
  )
}
