import { type FormEvent, useState } from 'react'
import { Field } from '../../forms/Field'
import { FormError } from '../../forms/FormError'
import { type FieldErrors, fieldErrorsFromRpc } from '../../forms/field-errors'
import { useDraft } from '../../forms/use-draft'
import { useClient } from '../../rpc'
import { useSettings } from '../../settings-state/SettingsProvider'

type NetworkField = 'httpProxy' | 'noProxy' | 'caCertFile' | 'timeoutMs'
const NETWORK_FIELDS: Readonly<Record<string, NetworkField>> = {
  httpProxy: 'httpProxy',
  noProxy: 'noProxy',
  caCertFile: 'caCertFile',
  timeoutMs: 'timeoutMs',
}
const EMPTY = { httpProxy: '', noProxy: '', caCertFile: '', timeoutMs: '' }

/** Proxy, no-proxy, CA file and timeout; main validates all of them before anything is saved. */
export function NetworkForm() {
  const client = useClient()
  const { snapshot, apply } = useSettings()
  const [errors, setErrors] = useState<FieldErrors<NetworkField>>({})
  const [saved, setSaved] = useState(false)
  const network = snapshot?.user.network
  const draft = useDraft<NetworkField>(
    network
      ? {
          httpProxy: network.httpProxy ?? '',
          noProxy: network.noProxy ?? '',
          caCertFile: network.caCertFile ?? '',
          timeoutMs: network.timeoutMs === undefined ? '' : String(network.timeoutMs),
        }
      : EMPTY,
  )
  const values = draft.values

  const save = (event: FormEvent) => {
    event.preventDefault()
    setSaved(false)
    const timeoutText = values.timeoutMs.trim()
    if (timeoutText !== '' && !/^\d+$/.test(timeoutText)) {
      setErrors({ timeoutMs: `Timeout must be a whole number of milliseconds, not "${timeoutText}".` })
      return
    }
    setErrors({})
    client
      .request('settings.setNetwork', {
        httpProxy: values.httpProxy.trim(),
        noProxy: values.noProxy.trim(),
        caCertFile: values.caCertFile.trim(),
        timeoutMs: timeoutText === '' ? null : Number(timeoutText),
      })
      .then(
        (next) => {
          apply(next)
          draft.clear()
          setSaved(true)
        },
        (failure: unknown) => setErrors(fieldErrorsFromRpc(failure, NETWORK_FIELDS)),
      )
  }
  const field = (name: NetworkField, label: string, hint?: string) => (
    <Field label={label} error={errors[name]} {...(hint ? { hint } : {})}>
      {(control) => (
        <input
          {...control}
          className="mono"
          value={values[name]}
          onChange={(event) => draft.edit(name, event.target.value)}
        />
      )}
    </Field>
  )

  return (
    <form onSubmit={save} aria-label="Network settings" noValidate>
      {field('httpProxy', 'Proxy', 'http://host:port; empty means direct (or the environment’s proxy).')}
      {field('noProxy', 'No proxy', 'Comma-separated hosts, domains (.example.com) and CIDR ranges.')}
      {field('caCertFile', 'CA certificate file', 'A PEM file trusted in addition to the system store.')}
      {field('timeoutMs', 'Timeout (ms)')}
      <div className="form-actions">
        {saved && (
          <span role="status" className="muted">
            Saved.
          </span>
        )}
        <button type="submit" className="primary">
          Save network settings
        </button>
      </div>
      <FormError message={errors.form} />
    </form>
  )
}
