import { type FormEvent, useState } from 'react'
import { Field } from '../forms/Field'
import type { RuleScope } from '../settings-state/rule-scopes'
import { ScopeChoice } from './ScopeChoice'

/** The rule to save, editable, pre-filled with the first suggestion; its scope; and a confirm button. */
export function AlwaysAllowForm({
  initialRule,
  error,
  busy,
  onConfirm,
  onCancel,
}: {
  initialRule: string
  error: string | undefined
  busy: boolean
  onConfirm: (rule: string, scope: RuleScope) => void
  onCancel: () => void
}) {
  const [rule, setRule] = useState(initialRule)
  const multiline = initialRule.includes('\n')
  const [scope, setScope] = useState<RuleScope>('local')
  const [localError, setLocalError] = useState<string>()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (rule.trim() === '') {
      setLocalError('A rule cannot be empty.')
      return
    }
    setLocalError(undefined)
    onConfirm(rule.trim(), scope)
  }
  return (
    <form className="approval-subform" aria-label="Always allow" onSubmit={submit} noValidate>
      <Field
        label="Rule"
        error={localError ?? error}
        hint="An exact command or prefix:*. Rules that allow every command (*, rm:*, sudo:*, …) are added only in Settings."
      >
        {(control) =>
          // A here-doc's exact rule spans lines: a one-line input would drop its newlines and save a
          // rule that no longer matches the command.
          multiline ? (
            <textarea
              {...control}
              className="mono"
              rows={Math.min(8, rule.split('\n').length)}
              spellCheck={false}
              // biome-ignore lint/a11y/noAutofocus: the user just asked for this field; typing goes straight in.
              autoFocus
              value={rule}
              onChange={(event) => setRule(event.target.value)}
              onKeyDown={(event) => {
                if (event.key !== 'Escape') return
                event.preventDefault()
                onCancel()
              }}
            />
          ) : (
            <input
              {...control}
              className="mono"
              // biome-ignore lint/a11y/noAutofocus: the user just asked for this field; typing goes straight in.
              autoFocus
              value={rule}
              onChange={(event) => setRule(event.target.value)}
              onKeyDown={(event) => {
                if (event.key !== 'Escape') return
                event.preventDefault()
                onCancel()
              }}
            />
          )
        }
      </Field>
      <ScopeChoice name="scope" scope={scope} onChange={setScope} />
      <div className="form-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={busy}>
          Save rule and allow
        </button>
      </div>
    </form>
  )
}
