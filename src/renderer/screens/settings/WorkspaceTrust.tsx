import { useState } from 'react'
import type { SettingsSnapshot } from '../../../shared/ipc/domains/settings'
import { FormError } from '../../forms/FormError'
import { errorMessage } from '../../forms/field-errors'
import { revealInvisible } from '../../../shared/reveal-invisible'
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
  const changes = snapshot.trust
  // Once accepted, what matters is what the file changed since: a rule added, edited or deleted.
  const changedSinceTrusted = changes?.trustedAt != null
  return (
    <section className="trust-notice" aria-labelledby="workspace-trust-title">
      <h3 id="workspace-trust-title" className="small-heading">
        {changedSinceTrusted
          ? 'Workspace rules changed since you trusted them'
          : 'Workspace rules you have not accepted'}
      </h3>
      <p>
        <code>{snapshot.files.workspace}</code> allows these commands without asking. It came with the
        workspace, so Shellgate ignores all of its allow rules until you trust them as they are now:
      </p>
      <ul>
        {untrusted.map((rule) => (
          <li key={rule.rule}>
            <code>{revealInvisible(rule.rule).text}</code>
            {rule.broad && <strong className="tag-untrusted"> Careful: {rule.broad}.</strong>}
          </li>
        ))}
      </ul>
      {changedSinceTrusted && <TrustChanges added={changes.added} removed={changes.removed} />}
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

/** The difference between the allow list the person accepted and the file as it is now. */
function TrustChanges({ added, removed }: { added: string[]; removed: string[] }) {
  return (
    <div className="trust-changes">
      {added.length > 0 && (
        <>
          <p>Added or edited in the file since you trusted it:</p>
          <ul>
            {added.map((rule) => (
              <li key={`added-${rule}`} className="trust-added">
                + <code>{rule}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      {removed.length > 0 && (
        <>
          <p>Removed from the file (or the old form of an edited rule):</p>
          <ul>
            {removed.map((rule) => (
              <li key={`removed-${rule}`} className="trust-removed">
                − <code>{rule}</code>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}
