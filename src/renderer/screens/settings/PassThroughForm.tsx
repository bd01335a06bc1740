import { type FormEvent, useState } from 'react'
import { Field } from '../../forms/Field'
import { FormError } from '../../forms/FormError'
import { type FieldErrors, fieldErrorsFromRpc } from '../../forms/field-errors'
import { useDraft } from '../../forms/use-draft'
import { useClient } from '../../rpc'
import { useSettings } from '../../settings-state/SettingsProvider'

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** Credential-like variables agent commands may still see, one name per line or comma-separated. */
export function PassThroughForm({ onSaved }: { onSaved: () => void }) {
  const client = useClient()
  const { snapshot, apply } = useSettings()
  const [errors, setErrors] = useState<FieldErrors<'passThrough'>>({})
  const [saved, setSaved] = useState(false)
  const current = snapshot?.user.environment.passThrough
  const draft = useDraft<'passThrough'>({ passThrough: current?.join('\n') ?? '' })
  const text = draft.values.passThrough

  const save = (event: FormEvent) => {
    event.preventDefault()
    setSaved(false)
    const names = text.split(/[\s,]+/).filter(Boolean)
    const bad = names.find((name) => !NAME.test(name))
    if (bad) {
      setErrors({
        passThrough: `"${bad}" is not a variable name: letters, digits and _, not starting with a digit.`,
      })
      return
    }
    setErrors({})
    client.request('settings.setEnvironment', { passThrough: names }).then(
      (next) => {
        apply(next)
        draft.clear()
        setSaved(true)
        onSaved()
      },
      (failure: unknown) => setErrors(fieldErrorsFromRpc(failure, { passThrough: 'passThrough' })),
    )
  }

  return (
    <form onSubmit={save} aria-label="Pass through" noValidate>
      <Field label="Pass through to agent commands (e.g. GH_TOKEN)" error={errors.passThrough}>
        {(control) => (
          <textarea
            {...control}
            className="mono"
            rows={3}
            value={text}
            onChange={(event) => draft.edit('passThrough', event.target.value)}
          />
        )}
      </Field>
      <div className="form-actions">
        {saved && <span role="status">Saved.</span>}
        <FormError message={errors.form} />
        <button type="submit" className="primary">
          Save pass-through
        </button>
      </div>
    </form>
  )
}
