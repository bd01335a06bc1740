import { type FormEvent, useState } from 'react'
import { Field } from '../../forms/Field'
import { FormError } from '../../forms/FormError'
import { type FieldErrors, fieldErrorsFromRpc } from '../../forms/field-errors'
import { useDraft } from '../../forms/use-draft'
import { useClient } from '../../rpc'
import { useSettings } from '../../settings-state/SettingsProvider'
import { plainIssue } from '../../../shared/ipc/plain-issue'
import { ApprovalSettingsSchema, LimitsSettingsSchema } from '../../../shared/settings'

type LimitField =
  | 'defaultTimeoutMs'
  | 'maxTimeoutMs'
  | 'maxOutputLength'
  | 'approvalTimeoutMs'
  | 'terminalIdleMinutes'
const LIMIT_FIELDS: Readonly<Record<string, LimitField>> = {
  defaultTimeoutMs: 'defaultTimeoutMs',
  maxTimeoutMs: 'maxTimeoutMs',
  maxOutputLength: 'maxOutputLength',
  approvalTimeoutMs: 'approvalTimeoutMs',
  timeoutMs: 'approvalTimeoutMs',
  terminalIdleMinutes: 'terminalIdleMinutes',
}
const LABELS: Readonly<Record<LimitField, string>> = {
  defaultTimeoutMs: 'Default timeout (ms)',
  maxTimeoutMs: 'Maximum timeout (ms)',
  maxOutputLength: 'Output shown inline (bytes)',
  approvalTimeoutMs: 'Approval timeout (ms, 0 = wait until answered)',
  terminalIdleMinutes: 'Stop terminal tasks idle for (minutes, 0 = never)',
}

/** How long commands may run in the foreground, how much output the agent sees inline, how long a card waits. */
export function LimitsForm() {
  const client = useClient()
  const { snapshot, apply } = useSettings()
  const [errors, setErrors] = useState<FieldErrors<LimitField>>({})
  const [saved, setSaved] = useState(false)
  const user = snapshot?.user
  const draft = useDraft<LimitField>({
    defaultTimeoutMs: user ? String(user.limits.defaultTimeoutMs) : '',
    maxTimeoutMs: user ? String(user.limits.maxTimeoutMs) : '',
    maxOutputLength: user ? String(user.limits.maxOutputLength) : '',
    approvalTimeoutMs: user ? String(user.approvals.timeoutMs) : '',
    terminalIdleMinutes: user ? String(user.limits.terminalIdleMinutes) : '',
  })
  const values = draft.values

  const save = (event: FormEvent) => {
    event.preventDefault()
    setSaved(false)
    const bad = (Object.keys(values) as LimitField[]).find((name) => !/^\d+$/.test(values[name].trim()))
    if (bad) {
      setErrors({ [bad]: `${LABELS[bad]} must be a whole number, not "${values[bad]}".` })
      return
    }
    // The shared schemas' own ranges, said in words before a round trip.
    const numbers = {
      defaultTimeoutMs: Number(values.defaultTimeoutMs),
      maxTimeoutMs: Number(values.maxTimeoutMs),
      maxOutputLength: Number(values.maxOutputLength),
      terminalIdleMinutes: Number(values.terminalIdleMinutes),
    }
    const limits = LimitsSettingsSchema.safeParse(numbers)
    const approvals = ApprovalSettingsSchema.safeParse({ timeoutMs: Number(values.approvalTimeoutMs) })
    const issue = limits.error?.issues[0]
    if (issue) {
      setErrors({ [String(issue.path[0]) as LimitField]: `${plainIssue(issue, LimitsSettingsSchema)}.` })
      return
    }
    if (approvals.error?.issues[0]) {
      const words = plainIssue(approvals.error.issues[0], ApprovalSettingsSchema).replace(
        /^Timeout/,
        'Approval timeout',
      )
      setErrors({ approvalTimeoutMs: `${words}.` })
      return
    }
    setErrors({})
    client
      .request('settings.setLimits', {
        defaultTimeoutMs: Number(values.defaultTimeoutMs),
        maxTimeoutMs: Number(values.maxTimeoutMs),
        maxOutputLength: Number(values.maxOutputLength),
        approvalTimeoutMs: Number(values.approvalTimeoutMs),
        terminalIdleMinutes: Number(values.terminalIdleMinutes),
      })
      .then(
        (next) => {
          apply(next)
          draft.clear()
          setSaved(true)
        },
        (failure: unknown) => setErrors(fieldErrorsFromRpc(failure, LIMIT_FIELDS)),
      )
  }

  return (
    <form onSubmit={save} aria-label="Limits" noValidate>
      {(Object.keys(LABELS) as LimitField[]).map((name) => (
        <Field key={name} label={LABELS[name]} error={errors[name]}>
          {(control) => (
            <input
              {...control}
              inputMode="numeric"
              className="mono"
              value={values[name]}
              onChange={(event) => draft.edit(name, event.target.value)}
            />
          )}
        </Field>
      ))}
      <div className="form-actions">
        {saved && <span role="status">Saved.</span>}
        <FormError message={errors.form} />
        <button type="submit" className="primary">
          Save limits
        </button>
      </div>
    </form>
  )
}
