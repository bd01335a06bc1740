import { type FormEvent, useState } from 'react'
import { Field } from '../forms/Field'
import { FormError } from '../forms/FormError'
import { fieldErrorsFromRpc } from '../forms/field-errors'
import { useClient } from '../rpc'
import { useWorkspace } from './WorkspaceProvider'

/**
 * Started without --workspace, Shellgate asks which folder the person works in (offering the recent
 * ones) before their own command box exists; the agents already working are listed, with their
 * waiting approvals, since they never wait on this choice.
 */
export function WorkspaceChooser() {
  const { recent, agents, chosen: onChosen } = useWorkspace()
  const client = useClient()
  const [folder, setFolder] = useState('')
  const [errors, setErrors] = useState<{ workspace?: string; form?: string }>({})
  const [busy, setBusy] = useState(false)

  const choose = (path: string) => {
    if (path.trim() === '') {
      setErrors({ workspace: 'Enter the folder to work in.' })
      return
    }
    setBusy(true)
    setErrors({})
    client.request('workspaces.choose', { workspace: path.trim() }).then(
      ({ workspace }) => onChosen(workspace),
      (failure: unknown) => {
        setBusy(false)
        setErrors(fieldErrorsFromRpc(failure, { workspace: 'workspace' }))
      },
    )
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    choose(folder)
  }

  return (
    <section className="panel workspace-choice" aria-labelledby="workspace-title">
      <h2 id="workspace-title">Which folder do you want to work in?</h2>
      <p className="muted">
        Your own commands run there, and its rules apply. Shellgate does not assume the folder it was started
        from. Agents bring their own folders and do not wait for this.
      </p>
      {agents.length > 0 && (
        <section aria-labelledby="agents-now-title">
          <h3 id="agents-now-title">Agents working now</h3>
          <ul className="waiting-agents">
            {agents.map((agent) => (
              <li key={agent.sessionId} data-testid="waiting-agent">
                <strong>{agent.title}</strong> <code className="muted">{agent.workspace}</code>{' '}
                {agent.pendingApprovals > 0 ? (
                  <a href="#/approvals">
                    {agent.pendingApprovals} {agent.pendingApprovals === 1 ? 'approval' : 'approvals'} waiting
                  </a>
                ) : (
                  <span className="muted">nothing waiting</span>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {recent.length > 0 && (
        <section aria-labelledby="recent-title">
          <h3 id="recent-title">Recent folders</h3>
          <ul className="recent-workspaces">
            {recent.map((path) => (
              <li key={path}>
                <button
                  type="button"
                  disabled={busy}
                  aria-label={`Open ${path}`}
                  onClick={() => choose(path)}
                >
                  <code>{path}</code>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <form aria-label="Choose a folder" onSubmit={submit} noValidate>
        <Field label="Folder" error={errors.workspace} hint="An absolute path to an existing folder.">
          {(control) => (
            <input
              {...control}
              className="mono"
              value={folder}
              spellCheck={false}
              onChange={(event) => setFolder(event.target.value)}
            />
          )}
        </Field>
        <div className="form-actions">
          <button type="submit" className="primary" disabled={busy}>
            Work in this folder
          </button>
        </div>
        <FormError message={errors.form} />
      </form>
    </section>
  )
}
