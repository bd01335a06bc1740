import { useState } from 'react'
import type { SettingsSnapshot } from '../../../shared/ipc/domains/settings'
import { FormError } from '../../forms/FormError'
import { errorMessage } from '../../forms/field-errors'
import { revealInvisible } from '../../format/reveal-invisible'
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
  const [confirmed, setConfirmed] = useState(false)
  const untrusted = snapshot.rules.filter((rule) => !rule.trusted)
  // A repository's `*` is exactly what this step guards against: it is never trusted in passing.
  const broad = untrusted.filter((rule) => rule.broad)
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
            <code>{revealInvisible(rule.rule).text}</code>
            {rule.broad && <strong className="tag-untrusted"> Careful: {rule.broad}.</strong>}
          </li>
        ))}
      </ul>
      <FormError message={error} />
      {broad.length > 0 && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={confirmed}
            onChange={(event) => setConfirmed(event.target.checked)}
          />
          I understand {broad.length === 1 ? 'this rule allows' : 'these rules allow'} far more than one
          command
        </label>
      )}
      <button
        type="button"
        className="danger"
        disabled={broad.length > 0 && !confirmed}
        onClick={async () => {
          setError(undefined)
          try {
            apply(
              await client.request(
                'settings.trustWorkspaceRules',
                broad.length > 0 ? { confirmBroad: confirmed } : {},
              ),
            )
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
