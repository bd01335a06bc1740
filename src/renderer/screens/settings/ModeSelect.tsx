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

/**
 * A choice and a Save button, not save-on-change: arrowing through a select fires a change per
 * option, and passing over yolo on the way must not switch it on. Choosing yolo warns before saving.
 */
export function ModeSelect() {
  const client = useClient()
  const { snapshot, apply } = useSettings()
  const [choice, setChoice] = useState<PermissionMode | null>(null)
  const [error, setError] = useState<string>()
  const [saving, setSaving] = useState(false)
  const [confirmation, setConfirmation] = useState<string>()
  const saved = snapshot?.user.permissions.mode
  if (!saved) return null
  const chosen = choice ?? saved

  const save = () => {
    setError(undefined)
    setConfirmation(undefined)
    setSaving(true)
    client.request('settings.setMode', { mode: chosen }).then(
      (next) => {
        setSaving(false)
        setChoice(null)
        apply(next)
        const label = MODES.find((option) => option.mode === next.user.permissions.mode)?.label
        setConfirmation(`Saved. Mode is now ${label}.`)
      },
      (failure: unknown) => {
        setSaving(false)
        setError(errorMessage(failure))
      },
    )
  }

  return (
    <div className="mode-select" data-saved-mode={saved}>
      <Field label="Permission mode" error={error}>
        {(control) => (
          <select
            {...control}
            value={chosen}
            disabled={saving}
            onChange={(event) => setChoice(event.target.value as PermissionMode)}
          >
            {MODES.map((option) => (
              <option key={option.mode} value={option.mode}>
                {option.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {chosen === 'yolo' && saved !== 'yolo' && (
        <p className="inline-warning" role="note">
          yolo: nothing will be asked; deny and ask rules still apply.
        </p>
      )}
      <button type="button" className="primary" onClick={save} disabled={saving || chosen === saved}>
        {saving ? 'Saving…' : 'Save mode'}
      </button>
      <p role="status" className="muted">
        {confirmation}
      </p>
    </div>
  )
}
