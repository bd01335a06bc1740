import { type FormEvent, useState } from 'react'
import { Field } from '../forms/Field'

/** Mirrors the contract's cap on the message that goes back to the agent. */
export const DENY_MESSAGE_MAX_CHARS = 4_000

/** An optional message that goes back to the agent as the call's result, and a confirm button. */
export function DenyForm({
  error,
  busy,
  onConfirm,
  onCancel,
}: {
  error: string | undefined
  busy: boolean
  onConfirm: (message: string | undefined) => void
  onCancel: () => void
}) {
  const [message, setMessage] = useState('')
  const tooLong = message.length > DENY_MESSAGE_MAX_CHARS
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!tooLong) onConfirm(message.trim() === '' ? undefined : message.trim())
  }
  return (
    <form className="approval-subform" aria-label="Deny" onSubmit={submit} noValidate>
      <Field
        label="Message to the agent (optional)"
        error={tooLong ? `At most ${DENY_MESSAGE_MAX_CHARS} characters.` : error}
        hint="Enter sends it; Shift+Enter adds a new line. The agent receives it as the command's result."
      >
        {(control) => (
          <textarea
            {...control}
            rows={2}
            // biome-ignore lint/a11y/noAutofocus: the user just asked for this field; typing goes straight in.
            autoFocus
            value={message}
            onChange={(event) => setMessage(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.preventDefault()
                onCancel()
                return
              }
              // Enter sends, as in the command box; Shift+Enter is a new line, and an IME composing a
              // character keeps its Enter.
              if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return
              event.preventDefault()
              event.currentTarget.form?.requestSubmit()
            }}
          />
        )}
      </Field>
      <div className="form-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="danger" disabled={busy}>
          Deny command
        </button>
      </div>
    </form>
  )
}
