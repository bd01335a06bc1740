import { type FormEvent, type ReactNode, useEffect, useState } from 'react'
import { useConnection } from '../connection/ConnectionProvider'
import { Field } from '../forms/Field'
import { FormError } from '../forms/FormError'
import { errorMessage, fieldErrorsFromRpc } from '../forms/field-errors'
import { useClient } from '../rpc'

/**
 * Started without --workspace, Shellgate asks which folder to work in, offering the recent ones,
 * before any session exists; with one, this renders the app at once.
 */
export function WorkspaceGate({ children }: { children: ReactNode }) {
  const client = useClient()
  const { generation } = useConnection()
  const [state, setState] = useState<{ current: string | null; recent: string[] } | null>(null)
  const [error, setError] = useState<string>()

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new connection (generation) asks again.
  useEffect(() => {
    let live = true
    client.request('workspaces.recent', {}).then(
      (next) => live && setState(next),
      (failure: unknown) => live && setError(errorMessage(failure)),
    )
    return () => {
      live = false
    }
  }, [client, generation])

  if (state?.current) return <>{children}</>
  return (
    <main className="app-main workspace-gate">
      {error && <p role="alert">Could not reach Shellgate: {error}</p>}
      {state && (
        <WorkspaceChooser recent={state.recent} onChosen={(current) => setState({ ...state, current })} />
      )}
    </main>
  )
}

function WorkspaceChooser({ recent, onChosen }: { recent: string[]; onChosen: (workspace: string) => void }) {
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
    <section className="screen" aria-labelledby="workspace-title">
      <h1 id="workspace-title">Which folder do you want to work in?</h1>
      <p className="muted">
        Commands run there, and its rules apply. Shellgate does not assume the folder it was started from.
      </p>
      {recent.length > 0 && (
        <section className="panel" aria-labelledby="recent-title">
          <h2 id="recent-title">Recent folders</h2>
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
      <form className="panel" aria-label="Choose a folder" onSubmit={submit} noValidate>
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
