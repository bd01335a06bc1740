import { useState } from 'react'
import type { PermissionMode } from '../../../shared/settings'
import { Field } from '../../forms/Field'
import { errorMessage } from '../../forms/field-errors'
import { useClient } from '../../rpc'
import { useSettings } from '../../settings-state/SettingsProvider'

const MODES: ReadonlyArray<{ mode: PermissionMode; label: string }> = [
  { mode: 'build', label: 'build: read-only commands run, the rest asks' },
  { mode: 'plan', label: 'plan: read-only commands run, the rest is denied' },
  { mode: 'yolo', label: 'yolo: everything runs without asking' },
]

/** Saved as soon as it changes: a mode is one choice, there is nothing to fill in before it. */
export function ModeSelect() {
  const client = useClient()
  const { snapshot, apply } = useSettings()
  const [error, setError] = useState<string>()
  const [saving, setSaving] = useState(false)
  const mode = snapshot?.user.permissions.mode
  if (!mode) return null
  return (
    <Field label="Permission mode" error={error}>
      {(control) => (
        <select
          {...control}
          value={mode}
          disabled={saving}
          onChange={(event) => {
            setError(undefined)
            setSaving(true)
            client.request('settings.setMode', { mode: event.target.value as PermissionMode }).then(
              (next) => {
                setSaving(false)
                apply(next)
              },
              (failure: unknown) => {
                setSaving(false)
                setError(errorMessage(failure))
              },
            )
          }}
        >
          {MODES.map((option) => (
            <option key={option.mode} value={option.mode}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}
