import { type FormEvent, useState } from 'react'
import { Field } from '../../forms/Field'
import { FormError } from '../../forms/FormError'
import { type FieldErrors, fieldErrorsFromRpc } from '../../forms/field-errors'
import type { RuleScope } from '../../settings-state/rule-scopes'

export type RuleList = 'allow' | 'ask' | 'deny'
export interface RuleDraft {
  list: RuleList
  rule: string
  scope: RuleScope
  /** Set once the person confirmed a broad allow rule (`*`, `rm:*`, …) after reading what it allows. */
  confirmBroad?: boolean
}
type RuleField = 'list' | 'rule' | 'scope' | 'confirmBroad'

const RULE_FIELDS: Readonly<Record<string, RuleField>> = {
  list: 'list',
  rule: 'rule',
  scope: 'scope',
  confirmBroad: 'confirmBroad',
}

/** The form for one rule, used to add and to edit; the server's rule errors land under the field they concern. */
export function RuleEditor({
  label,
  initial,
  submitLabel,
  sessionAvailable,
  onSubmit,
  onCancel,
}: {
  label: string
  initial: RuleDraft
  submitLabel: string
  sessionAvailable: boolean
  onSubmit: (draft: RuleDraft) => Promise<void>
  onCancel?: () => void
}) {
  const [draft, setDraft] = useState<RuleDraft>(initial)
  const [errors, setErrors] = useState<FieldErrors<RuleField>>({})
  const [busy, setBusy] = useState(false)
  const send = (confirmBroad: boolean) => {
    if (draft.rule.trim() === '') {
      setErrors({ rule: 'A rule cannot be empty.' })
      return
    }
    setErrors({})
    setBusy(true)
    onSubmit({ ...draft, rule: draft.rule.trim(), ...(confirmBroad ? { confirmBroad } : {}) }).then(
      () => {
        setBusy(false)
        if (!onCancel) setDraft({ ...initial, rule: '' })
      },
      (failure: unknown) => {
        setBusy(false)
        setErrors(fieldErrorsFromRpc(failure, RULE_FIELDS))
      },
    )
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    send(false)
  }
  return (
    <form className="rule-editor" aria-label={label} onSubmit={submit} noValidate>
      <div className="field-row">
        <Field label="List" error={errors.list}>
          {(control) => (
            <select
              {...control}
              value={draft.list}
              onChange={(event) => setDraft({ ...draft, list: event.target.value as RuleList })}
            >
              <option value="allow">allow</option>
              <option value="ask">ask</option>
              <option value="deny">deny</option>
            </select>
          )}
        </Field>
        <Field
          label="Rule"
          error={errors.rule}
          hint="An exact command, prefix:* or a * wildcard. A rule that allows every command asks you to confirm."
        >
          {(control) => (
            <input
              {...control}
              className="mono"
              value={draft.rule}
              onChange={(event) => setDraft({ ...draft, rule: event.target.value })}
            />
          )}
        </Field>
        <Field label="Scope" error={errors.scope}>
          {(control) => (
            <select
              {...control}
              value={draft.scope}
              onChange={(event) => setDraft({ ...draft, scope: event.target.value as RuleScope })}
            >
              {sessionAvailable && <option value="session">session</option>}
              <option value="local">workspace (this machine)</option>
              <option value="workspace">shared with the repository (in git status)</option>
              <option value="user">user</option>
            </select>
          )}
        </Field>
      </div>
      <div className="form-actions">
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {submitLabel}
        </button>
      </div>
      {errors.confirmBroad && (
        <fieldset aria-label="Add a broad rule?" className="close-confirm">
          <p role="alert">{errors.confirmBroad}</p>
          <button type="button" className="danger" disabled={busy} onClick={() => send(true)}>
            Add anyway
          </button>{' '}
          <button type="button" onClick={() => setErrors({})}>
            Cancel
          </button>
        </fieldset>
      )}
      <FormError message={errors.form} />
    </form>
  )
}
