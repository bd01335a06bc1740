import { type FormEvent, useState } from 'react'
import type { WorkspaceNetworkView } from '../../../shared/ipc/domains/sandbox'
import { Field } from '../../forms/Field'
import { FormError } from '../../forms/FormError'
import { type FieldErrors, fieldErrorsFromRpc } from '../../forms/field-errors'
import { useDraft } from '../../forms/use-draft'
import { useClient } from '../../rpc'

type NetworkField = 'allowedPorts' | 'allowlist' | 'denylist'
const NETWORK_FIELDS: Readonly<Record<string, NetworkField>> = {
  allowedPorts: 'allowedPorts',
  allowlist: 'allowlist',
  denylist: 'denylist',
}
const entries = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')

/**
 * This workspace's sandbox network, kept on this machine (never in the repository): the host
 * ports its commands may reach, and domains allowed or refused here only. Main refuses
 * Shellgate's own ports and bad entries, and says which.
 */
export function WorkspaceNetworkForm({
  current,
  onSaved,
}: {
  current: WorkspaceNetworkView
  onSaved: (next: WorkspaceNetworkView) => void
}) {
  const client = useClient()
  const [errors, setErrors] = useState<FieldErrors<NetworkField>>({})
  const [saved, setSaved] = useState(false)
  const draft = useDraft<NetworkField>({
    allowedPorts: current.allowedPorts.join(', '),
    allowlist: current.allowlist.join('\n'),
    denylist: current.denylist.join('\n'),
  })
  const values = draft.values

  const save = (event: FormEvent) => {
    event.preventDefault()
    setSaved(false)
    setErrors({})
    const ports = entries(values.allowedPorts).map(Number)
    if (ports.some((port) => !Number.isInteger(port))) {
      setErrors({ allowedPorts: 'write port numbers, separated by commas or spaces' })
      return
    }
    const next = {
      allowedPorts: ports,
      allowlist: entries(values.allowlist),
      denylist: entries(values.denylist),
    }
    client.request('sandbox.setWorkspaceNetwork', next).then(
      (after) => {
        draft.clear()
        setSaved(true)
        onSaved(after)
      },
      (failure: unknown) => setErrors(fieldErrorsFromRpc(failure, NETWORK_FIELDS)),
    )
  }
  const text = (name: NetworkField, label: string, hint: string, rows = 3) => (
    <Field label={label} error={errors[name]} hint={hint}>
      {(control) => (
        <textarea
          {...control}
          className="mono"
          rows={rows}
          value={values[name]}
          onChange={(event) => draft.edit(name, event.target.value)}
        />
      )}
    </Field>
  )

  return (
    <form onSubmit={save} aria-label="This workspace's sandbox network" noValidate>
      <h3>This workspace, on this machine</h3>
      <p className="muted">
        {current.workspace} · kept in {current.file}
      </p>
      {current.problem && <p role="alert">{current.problem}</p>}
      {text(
        'allowedPorts',
        'Allowed ports on this machine',
        "Sandboxed commands reach 127.0.0.1 only on these ports (a local database for tests). Shellgate's own ports are never allowed.",
        1,
      )}
      {text('allowlist', 'Allowlist, this workspace (one domain per line)', 'Admitted without asking.')}
      {text(
        'denylist',
        'Deny list, this workspace (one domain per line)',
        'Refused whatever the network setting.',
      )}
      <div className="form-actions">
        {saved && (
          <span role="status" className="muted">
            Saved.
          </span>
        )}
        <button type="submit" className="primary">
          Save this workspace's network
        </button>
      </div>
      <FormError message={errors.form} />
    </form>
  )
}
