import { useState } from 'react'
import type { SettingsSnapshot } from '../../../shared/ipc/domains/settings'
import { FormError } from '../../forms/FormError'
import { errorMessage } from '../../forms/field-errors'
import { useClient } from '../../rpc'

/**
 * A repository's own allow rules are ignored until the user accepts them: this names them and
 * offers the one button that accepts them as they are now.
 */
export function WorkspaceTrust({
  snapshot,
  apply,
}: {
  snapshot: SettingsSnapshot
  apply: (next: SettingsSnapshot) => void
}) {
  const client = useClient()
  const [error, setError] = useState<string>()
  const untrusted = snapshot.rules.filter((rule) => !rule.trusted)
  if (untrusted.length === 0) return null
  return (
    <section className="trust-notice" aria-labelledby="workspace-trust-title">
      <h3 id="workspace-trust-title" className="small-heading">
        Workspace rules you have not accepted
      </h3>
      <p>
        <code>{snapshot.files.workspace}</code> allows these commands without asking. It came with the
        workspace, so Shellgate ignores them until you trust them:
      </p>
      <ul>
        {untrusted.map((rule) => (
          <li key={rule.rule}>
            <code>{rule.rule}</code>
          </li>
        ))}
      </ul>
      <FormError message={error} />
      <button
        type="button"
        className="danger"
        onClick={async () => {
          setError(undefined)
          try {
            apply(await client.request('settings.trustWorkspaceRules', {}))
          } catch (failure) {
            setError(errorMessage(failure))
          }
        }}
      >
        Trust these workspace rules
      </button>
    </section>
  )
}
