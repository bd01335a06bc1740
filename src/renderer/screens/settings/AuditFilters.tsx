import { AuditStatusSchema, DecidedBySchema } from '../../../shared/audit'
import { type FormEvent, useState } from 'react'
import { Field } from '../../forms/Field'
import { DECIDED_BY_WORDS, STATUS_WORDS } from './audit-words'
import { useSessions } from '../../session/SessionsProvider'

export interface AuditFilterValues {
  text: string
  decidedBy: string
  status: string
  session: string
}

export const NO_AUDIT_FILTERS: AuditFilterValues = { text: '', decidedBy: '', status: '', session: '' }

const DECIDED_BY = DecidedBySchema.options
const STATUSES = AuditStatusSchema.options

export function AuditFilters({ onApply }: { onApply: (filters: AuditFilterValues) => void }) {
  const { sessions } = useSessions()
  const [values, setValues] = useState(NO_AUDIT_FILTERS)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onApply(values)
  }
  const select = (
    name: 'decidedBy' | 'status',
    label: string,
    options: readonly string[],
    words: Readonly<Record<string, string>>,
  ) => (
    <Field label={label}>
      {(control) => (
        <select
          {...control}
          value={values[name]}
          onChange={(event) => setValues({ ...values, [name]: event.target.value })}
        >
          <option value="">any</option>
          {options.map((option) => (
            <option key={option} value={option}>
              {words[option] ?? option}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
  return (
    <form onSubmit={submit} aria-label="Audit filters" className="field-row" noValidate>
      <Field label="Text">
        {(control) => (
          <input
            {...control}
            type="search"
            value={values.text}
            onChange={(event) => setValues({ ...values, text: event.target.value })}
          />
        )}
      </Field>
      {select('decidedBy', 'Decided by', DECIDED_BY, DECIDED_BY_WORDS)}
      {select('status', 'Status', STATUSES, STATUS_WORDS)}
      <Field label="Session">
        {(control) => (
          <select
            {...control}
            value={values.session}
            onChange={(event) => setValues({ ...values, session: event.target.value })}
          >
            <option value="">any</option>
            {(sessions ?? []).map((session) => (
              <option key={session.id} value={session.id}>
                {session.title || session.id}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="form-actions align-end">
        <button type="submit" className="primary">
          Apply filters
        </button>
      </div>
    </form>
  )
}
