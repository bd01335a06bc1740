import { useEffect, useRef } from 'react'

/**
 * Asks in place (not window.confirm, which blocks the page and every event with it) before closing a
 * session that still has work: what will happen, and the two ways out. Cancel has the focus first.
 */
export function CloseSessionConfirm({
  title,
  consequences,
  onConfirm,
  onCancel,
}: {
  title: string
  consequences: string
  onConfirm: () => void
  onCancel: () => void
}) {
  const cancel = useRef<HTMLButtonElement>(null)
  useEffect(() => cancel.current?.focus(), [])
  return (
    <fieldset className="close-confirm" aria-label={`Close conversation ${title}?`}>
      <p>
        Close <strong>{title}</strong>? {consequences}.
      </p>
      <button type="button" className="danger" onClick={onConfirm}>
        Close anyway
      </button>{' '}
      <button type="button" ref={cancel} onClick={onCancel}>
        Keep open
      </button>
    </fieldset>
  )
}
