import { type FormEvent, useState } from 'react'
import type { SandboxSettings } from '../../../shared/settings'
import { Field } from '../../forms/Field'
import { FormError } from '../../forms/FormError'
import { type FieldErrors, fieldErrorsFromRpc } from '../../forms/field-errors'
import { useDraft } from '../../forms/use-draft'
import { useClient } from '../../rpc'
import { useSettings } from '../../settings-state/SettingsProvider'

type SandboxField =
  | 'mode'
  | 'network'
  | 'allowlist'
  | 'denylist'
  | 'hiddenPaths'
  | 'toolCaches'
  | 'readablePaths'
  | 'allowedSockets'
const SANDBOX_FIELDS: Readonly<Record<string, SandboxField>> = {
  mode: 'mode',
  network: 'network',
  allowlist: 'allowlist',
  denylist: 'denylist',
  hiddenPaths: 'hiddenPaths',
  toolCaches: 'toolCaches',
  readablePaths: 'readablePaths',
  allowedSockets: 'allowedSockets',
}
const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')

/** Mode, network, allowlist, extra hidden paths and tool caches; main checks each entry before saving. */
export function SandboxForm({ onSaved }: { onSaved: () => void }) {
  const client = useClient()
  const { snapshot, apply } = useSettings()
  const current = snapshot?.user.sandbox
  const [errors, setErrors] = useState<FieldErrors<SandboxField>>({})
  const [saved, setSaved] = useState(false)
  const draft = useDraft<SandboxField>({
    mode: current?.mode ?? 'auto',
    network: current?.network ?? 'on',
    allowlist: current?.allowlist.join('\n') ?? '',
    denylist: current?.denylist.join('\n') ?? '',
    hiddenPaths: current?.hiddenPaths.join('\n') ?? '',
    toolCaches: (current?.toolCaches ?? []).join('\n'),
    readablePaths: (current?.readablePaths ?? []).join('\n'),
    allowedSockets: (current?.allowedSockets ?? []).join('\n'),
  })
  const values = draft.values

  const save = (event: FormEvent) => {
    event.preventDefault()
    setSaved(false)
    setErrors({})
    const caches = lines(values.toolCaches)
    const next: SandboxSettings = {
      mode: values.mode as SandboxSettings['mode'],
      network: values.network as SandboxSettings['network'],
      allowlist: lines(values.allowlist),
      denylist: lines(values.denylist),
      hiddenPaths: lines(values.hiddenPaths),
      readablePaths: lines(values.readablePaths),
      allowedSockets: lines(values.allowedSockets),
      ...(caches.length > 0 ? { toolCaches: caches } : {}),
    }
    client.request('settings.setSandbox', next).then(
      (snapshotAfter) => {
        apply(snapshotAfter)
        draft.clear()
        setSaved(true)
        onSaved()
      },
      (failure: unknown) => setErrors(fieldErrorsFromRpc(failure, SANDBOX_FIELDS)),
    )
  }
  const select = (name: 'mode' | 'network', label: string, options: string[], hint: string) => (
    <Field label={label} error={errors[name]} hint={hint}>
      {(control) => (
        <select {...control} value={values[name]} onChange={(e) => draft.edit(name, e.target.value)}>
          {options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
  const list = (
    name: 'allowlist' | 'denylist' | 'hiddenPaths' | 'toolCaches' | 'readablePaths' | 'allowedSockets',
    label: string,
    hint: string,
  ) => (
    <Field label={label} error={errors[name]} hint={hint}>
      {(control) => (
        <textarea
          {...control}
          className="mono"
          rows={3}
          value={values[name]}
          onChange={(e) => draft.edit(name, e.target.value)}
        />
      )}
    </Field>
  )

  return (
    <form onSubmit={save} aria-label="Sandbox settings" noValidate>
      {select(
        'mode',
        'Mode',
        ['auto', 'strict', 'off'],
        'auto: read-only for commands run without asking, workspace-write for approved ones; strict: no sandbox, no command.',
      )}
      {select(
        'network',
        'Network for approved commands',
        ['on', 'off', 'allowlist'],
        "Always through Shellgate's proxy, never this machine's own services. on: any public site; allowlist: listed domains, any other is asked; off: none. Read-only commands never have a network.",
      )}
      {list(
        'allowlist',
        'Allowlist (one domain per line)',
        'With network allowlist: e.g. registry.npmjs.org, or *.github.com for its subdomains.',
      )}
      {list('denylist', 'Deny list (one domain per line)', 'Refused whatever the network setting.')}
      {list(
        'readablePaths',
        'Readable folders (one path per line)',
        'Reads are denied by default: commands see the system, the workspace and the toolchains on PATH. Secrets inside these folders stay hidden.',
      )}
      {list(
        'hiddenPaths',
        'Also hide (one path per line)',
        '~/.ssh, ~/.aws, ~/.gnupg, ~/.netrc, browser profiles … are always hidden.',
      )}
      {list(
        'toolCaches',
        'Shared tool caches (one path per line)',
        'Empty: each workspace gets its own npm, pnpm, yarn, pip, cargo and go caches. Listed here, a cache is yours and shared: a sandboxed command can plant what your own builds later use.',
      )}
      {list(
        'allowedSockets',
        'Allowed host sockets (one path per line)',
        'Approved commands may connect to these, e.g. /var/run/docker.sock. Whoever reaches a socket acts with its owner’s power: the approval card warns.',
      )}
      <div className="form-actions">
        {saved && (
          <span role="status" className="muted">
            Saved.
          </span>
        )}
        <button type="submit" className="primary">
          Save sandbox settings
        </button>
      </div>
      <FormError message={errors.form} />
    </form>
  )
}
