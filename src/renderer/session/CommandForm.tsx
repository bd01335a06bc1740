import { type FormEvent, useState } from 'react'
import { Field } from '../forms/Field'
import { FormError } from '../forms/FormError'
import { type FieldErrors, fieldErrorsFromRpc } from '../forms/field-errors'
import { useClient } from '../rpc'
import {
  BASH_RUN_FIELDS,
  type CommandField,
  type CommandFormValues,
  validateCommandForm,
} from './command-form-values'

/** Marks the command box, so an answered approval can hand the focus back to it. */
export const COMMAND_BOX_ATTRIBUTE = 'data-command-box'

const EMPTY: CommandFormValues = {
  command: '',
  description: '',
  timeout: '',
  background: false,
  terminal: false,
}

/**
 * Issues one Bash tool call exactly as an agent would. bash.run resolves only when the call ends,
 * so the form does not wait for it: the call shows up in the history through bash.call events.
 */
export function CommandForm({ sessionId }: { sessionId: string }) {
  const client = useClient()
  const [values, setValues] = useState<CommandFormValues>(EMPTY)
  const [errors, setErrors] = useState<FieldErrors<CommandField>>({})
  const [sending, setSending] = useState(false)
  const update = (patch: Partial<CommandFormValues>) => setValues((v) => ({ ...v, ...patch }))

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const checked = validateCommandForm(values)
    if (!checked.ok) {
      setErrors(checked.errors)
      return
    }
    setErrors({})
    setSending(true)
    // Like a chat box: the command leaves the box when it is sent; a refused one comes back.
    const sent = values.command
    update({ command: '' })
    client.request('bash.run', { sessionId, ...checked.call }).then(
      () => setSending(false),
      (failure: unknown) => {
        setSending(false)
        setValues((now) => (now.command === '' ? { ...now, command: sent } : now))
        setErrors(fieldErrorsFromRpc(failure, BASH_RUN_FIELDS))
      },
    )
    // A bad call is refused at once; a good one runs for as long as it runs, and an agent may run
    // several at a time. The short pause only absorbs a double click.
    window.setTimeout(() => setSending(false), 300)
  }

  return (
    <form className="panel command-form" aria-label="Run a command" onSubmit={submit} noValidate>
      <Field label="Command" error={errors.command} hint="Enter runs it; Shift+Enter adds a new line.">
        {(control) => (
          <textarea
            {...control}
            className="mono"
            rows={3}
            value={values.command}
            spellCheck={false}
            {...{ [COMMAND_BOX_ATTRIBUTE]: '' }}
            onChange={(event) => update({ command: event.target.value })}
            onKeyDown={(event) => {
              // Enter runs, as in chat boxes and terminals; Shift+Enter is a new line, and an IME
              // composing a character keeps its Enter.
              if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return
              event.preventDefault()
              event.currentTarget.form?.requestSubmit()
            }}
          />
        )}
      </Field>
      <div className="field-row">
        <Field label="Description" error={errors.description}>
          {(control) => (
            <input
              {...control}
              value={values.description}
              onChange={(event) => update({ description: event.target.value })}
            />
          )}
        </Field>
        <Field label="Timeout (ms)" error={errors.timeout}>
          {(control) => (
            <input
              {...control}
              inputMode="numeric"
              placeholder="default (0 too); capped at the maximum"
              value={values.timeout}
              onChange={(event) => update({ timeout: event.target.value })}
            />
          )}
        </Field>
      </div>
      <div className="form-actions">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={values.background}
            onChange={(event) => update({ background: event.target.checked })}
          />
          Run in background
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={values.terminal === true}
            onChange={(event) => update({ terminal: event.target.checked })}
          />
          Run on a terminal (type into it in Tasks)
        </label>
        {errors.terminal && (
          <span className="field-error" role="alert">
            {errors.terminal}
          </span>
        )}
        {errors.background && (
          <span className="field-error" role="alert">
            {errors.background}
          </span>
        )}
        <button type="submit" className="primary" disabled={sending}>
          Run
        </button>
      </div>
      <FormError message={errors.form} />
    </form>
  )
}
