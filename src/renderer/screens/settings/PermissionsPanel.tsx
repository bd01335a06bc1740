import { useEffect } from 'react'
import { useSessions } from '../../session/SessionsProvider'
import { useClient } from '../../rpc'
import { useSettings } from '../../settings-state/SettingsProvider'
import { LimitsForm } from './LimitsForm'
import { ModeSelect } from './ModeSelect'
import { type RuleDraft, RuleEditor } from './RuleEditor'
import { RulesTable } from './RulesTable'
import { WorkspaceTrust } from './WorkspaceTrust'

export function PermissionsPanel() {
  const client = useClient()
  const { snapshot, error, apply, reload } = useSettings()
  const sessionId = useSessions().selected?.id
  // Rules can change behind the UI's back (another window, a hand-edited file): show the files as they are now.
  useEffect(reload, [reload])

  // Session rules belong to one session: they are changed for the session whose tab is selected.
  const change = (draft: RuleDraft) =>
    draft.scope === 'session' && sessionId ? { ...draft, sessionId } : draft
  const add = async (draft: RuleDraft) => apply(await client.request('settings.addRule', change(draft)))
  const remove = async (draft: RuleDraft) => apply(await client.request('settings.removeRule', change(draft)))
  // Add first: if the new rule is refused, the old one is still there and nothing was half-done.
  const replace = async (old: RuleDraft, next: RuleDraft) => {
    if (old.list === next.list && old.rule === next.rule && old.scope === next.scope) return
    await add(next)
    try {
      await remove(old)
    } catch (failure) {
      throw new Error(
        `The new rule was saved, but the old one could not be removed: ${failure instanceof Error ? failure.message : String(failure)}`,
      )
    }
  }

  return (
    <section className="panel" aria-labelledby="permissions-title">
      <h2 id="permissions-title">Permissions</h2>
      {error && <p role="alert">Could not load settings: {error}</p>}
      {snapshot && (
        <>
          <ModeSelect />
          <WorkspaceTrust snapshot={snapshot} apply={apply} />
          <h3 className="small-heading">Rules</h3>
          <RulesTable
            rules={snapshot.rules}
            sessionAvailable={Boolean(sessionId)}
            onRemove={remove}
            onReplace={replace}
          />
          <h3 className="small-heading">Add a rule</h3>
          <RuleEditor
            label="Add a rule"
            initial={{ list: 'allow', rule: '', scope: 'local' }}
            submitLabel="Add rule"
            sessionAvailable={Boolean(sessionId)}
            onSubmit={add}
          />
          <h3 className="small-heading">Limits</h3>
          <LimitsForm />
          <p className="muted">
            User rules: <code>{snapshot.files.user}</code> · Rules shared with the repository:{' '}
            <code>{snapshot.files.workspace}</code>
            {snapshot.files.local && (
              <>
                {' '}
                · This workspace on this machine: <code>{snapshot.files.local}</code>
              </>
            )}
          </p>
        </>
      )}
    </section>
  )
}
