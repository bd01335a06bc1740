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
}
type RuleField = 'list' | 'rule' | 'scope'

const RULE_FIELDS: Readonly<Record<string, RuleField>> = { list: 'list', rule: 'rule', scope: 'scope' }

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
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (draft.rule.trim() === '') {
      setErrors({ rule: 'A rule cannot be empty.' })
      return
    }
    setErrors({})
    setBusy(true)
    onSubmit({ ...draft, rule: draft.rule.trim() }).then(
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
        <Field label="Rule" error={errors.rule} hint="An exact command, prefix:* or a * wildcard.">
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
              <option value="workspace">workspace</option>
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
      <FormError message={errors.form} />
    </form>
  )
}
