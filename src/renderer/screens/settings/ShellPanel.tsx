import { type FormEvent, useState } from 'react'
import type { ShellKind } from '../../../shared/settings'
import { Field } from '../../forms/Field'
import { FormError } from '../../forms/FormError'
import { type FieldErrors, fieldErrorsFromRpc } from '../../forms/field-errors'
import { useDraft } from '../../forms/use-draft'
import { useClient } from '../../rpc'
import { useSettings } from '../../settings-state/SettingsProvider'
import { shellChoices } from '../../settings-state/shell-choices'
import { useRequest } from '../../use-request'

type ShellField = 'kind' | 'path'

export function ShellPanel() {
  const client = useClient()
  const shells = useRequest('shells.list', {})
  const { snapshot, apply } = useSettings()
  const [errors, setErrors] = useState<FieldErrors<ShellField>>({})
  const [saved, setSaved] = useState(false)
  const savedShell = snapshot?.user.shell
  const draft = useDraft<ShellField>({ kind: savedShell?.kind ?? 'auto', path: savedShell?.path ?? '' })
  const kind = draft.values.kind as ShellKind
  const path = draft.values.path

  const save = (event: FormEvent) => {
    event.preventDefault()
    setErrors({})
    setSaved(false)
    const choice = path.trim() === '' ? { kind } : { kind, path: path.trim() }
    client.request('settings.setShell', choice).then(
      (next) => {
        apply(next)
        draft.clear()
        setSaved(true)
        shells.reload()
      },
      (failure: unknown) => setErrors(fieldErrorsFromRpc(failure, { kind: 'kind', path: 'path' })),
    )
  }

  const report = shells.data
  return (
    <section className="panel" aria-labelledby="shell-title">
      <h2 id="shell-title">Shell</h2>
      {shells.error && <p role="alert">Could not list shells: {shells.error}</p>}
      {report && (
        <>
          <p>
            In effect:{' '}
            <strong data-field="selectedShell">
              {report.selected ? `${report.selected.name} (${report.selected.path})` : 'none found'}
            </strong>
            . {report.why}
          </p>
          {report.candidates.length === 0 ? (
            <p className="muted">No shell was found on this machine.</p>
          ) : (
            <table className="data-table" aria-label="Shells found on this machine">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Path</th>
                  <th scope="col">Available</th>
                  <th scope="col">Found by</th>
                  <th scope="col">In effect</th>
                </tr>
              </thead>
              <tbody>
                {report.candidates.map((candidate) => (
                  <tr key={`${candidate.kind}:${candidate.path}`}>
                    <td>{candidate.name}</td>
                    <td>{candidate.kind}</td>
                    <td>
                      <code>{candidate.path}</code>
                    </td>
                    <td>{candidate.available ? 'yes' : 'no'}</td>
                    <td>{candidate.source}</td>
                    <td>{report.selected?.path === candidate.path ? 'yes' : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <form onSubmit={save} aria-label="Shell choice" noValidate>
            <fieldset
              className="scope-choice"
              aria-describedby={errors.kind ? 'shell-kind-error' : undefined}
            >
              <legend>Shell for new sessions</legend>
              {shellChoices(report.platform).map((choice) => (
                <label key={choice.kind} className="checkbox">
                  <input
                    type="radio"
                    name="shell-kind"
                    value={choice.kind}
                    checked={kind === choice.kind}
                    onChange={() => draft.edit('kind', choice.kind)}
                  />
                  {choice.label}
                </label>
              ))}
            </fieldset>
            {errors.kind && (
              <span id="shell-kind-error" className="field-error" role="alert">
                {errors.kind}
              </span>
            )}
            <Field label="Executable path (optional)" error={errors.path} hint="Empty means: find it.">
              {(control) => (
                <input
                  {...control}
                  className="mono"
                  value={path}
                  onChange={(event) => draft.edit('path', event.target.value)}
                />
              )}
            </Field>
            <div className="form-actions">
              {saved && (
                <span role="status" className="muted">
                  Saved. Open sessions keep their shell; new sessions use this one.
                </span>
              )}
              <button type="submit" className="primary">
                Save shell
              </button>
            </div>
            <FormError message={errors.form} />
          </form>
        </>
      )}
    </section>
  )
}
