import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react'
import type { WaitingAgent } from '../../shared/ipc/domains/sessions'
import { useConnection } from '../connection/ConnectionProvider'
import { useEvent } from '../events/use-event'
import { errorMessage } from '../forms/field-errors'
import { useClient } from '../rpc'

export interface WorkspaceState {
  /** The person's folder; null until chosen when Shellgate started without --workspace. */
  current: string | null
  recent: string[]
  /** Agent conversations open now: they work in their own folders and never wait on this choice. */
  agents: WaitingAgent[]
  loaded: boolean
  error: string | null
  chosen(workspace: string): void
}

const WorkspaceContext = createContext<WorkspaceState | null>(null)

/**
 * The person's folder. Without one the whole desk still works (agents' approvals, tasks,
 * settings); only the person's own command box waits for the choice.
 */
export function WorkspaceProvider({ children }: { children: ReactNode }) {
  const client = useClient()
  const { generation } = useConnection()
  const [state, setState] = useState<{
    current: string | null
    recent: string[]
    agents: WaitingAgent[]
  } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [asked, setAsked] = useState(0)

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new connection or a change asks again.
  useEffect(() => {
    let live = true
    client.request('workspaces.recent', {}).then(
      (next) => {
        if (!live) return
        setState(next)
        setError(null)
      },
      (failure: unknown) => live && setError(errorMessage(failure)),
    )
    return () => {
      live = false
    }
  }, [client, generation, asked])
  // The waiting agents change while the person is choosing.
  const again = () => setAsked((n) => n + 1)
  useEvent('sessions.changed', again)
  useEvent('approvals.requested', again)
  useEvent('approvals.resolved', again)

  const chosen = useCallback(
    (workspace: string) =>
      setState((previous) => (previous ? { ...previous, current: workspace } : previous)),
    [],
  )
  const value = useMemo(
    () => ({
      current: state?.current ?? null,
      recent: state?.recent ?? [],
      agents: state?.agents ?? [],
      loaded: state !== null,
      error,
      chosen,
    }),
    [state, error, chosen],
  )
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>
}

export function useWorkspace(): WorkspaceState {
  const state = useContext(WorkspaceContext)
  if (!state) throw new Error('useWorkspace outside <WorkspaceProvider>')
  return state
}
