import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react'
import type { Session } from '../../shared/ipc/domains/sessions'
import { useEvent } from '../events/use-event'
import { errorMessage } from '../forms/field-errors'
import { useConnection } from '../connection/ConnectionProvider'
import { useClient } from '../rpc'

/** Per window: which tab is selected is a view choice, not something main should remember. */
const SELECTED_SESSION_KEY = 'shellgate.selectedSession'

export interface SessionsState {
  sessions: Session[] | null
  error: string | null
  selected: Session | null
  select(id: string): void
  create(title?: string): Promise<Session>
  close(id: string): Promise<void>
}

const SessionsContext = createContext<SessionsState | null>(null)

/** Open sessions for the whole app (Session tabs, approval cards, audit filters), kept live by sessions.changed. */
export function SessionsProvider({ children }: { children: ReactNode }) {
  const client = useClient()
  const { generation } = useConnection()
  const [sessions, setSessions] = useState<Session[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [selectedId, setSelectedId] = useState<string | null>(() =>
    sessionStorage.getItem(SELECTED_SESSION_KEY),
  )

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new connection generation means reload the sessions.
  useEffect(() => {
    let current = true
    client.request('sessions.list', {}).then(
      (list) => current && setSessions(list),
      (failure: unknown) => current && setError(errorMessage(failure)),
    )
    return () => {
      current = false
    }
  }, [client, generation])
  useEvent('sessions.changed', ({ sessions: list }) => {
    setSessions(list)
    setError(null)
  })

  const select = useCallback((id: string) => {
    sessionStorage.setItem(SELECTED_SESSION_KEY, id)
    setSelectedId(id)
  }, [])
  const create = useCallback(
    async (title?: string) => {
      const session = await client.request('sessions.create', title ? { title } : {})
      setSessions((list) => (list?.some((s) => s.id === session.id) ? list : [...(list ?? []), session]))
      select(session.id)
      return session
    },
    [client, select],
  )
  const close = useCallback(
    async (id: string) => {
      await client.request('sessions.close', { sessionId: id })
      setSessions((list) => list?.filter((s) => s.id !== id) ?? null)
    },
    [client],
  )

  const value = useMemo<SessionsState>(() => {
    const selected = sessions?.find((s) => s.id === selectedId) ?? defaultConversation(sessions ?? [])
    return { sessions, error, selected, select, create, close }
  }, [sessions, error, selectedId, select, create, close])
  return <SessionsContext.Provider value={value}>{children}</SessionsContext.Provider>
}

export function useSessions(): SessionsState {
  const state = useContext(SessionsContext)
  if (!state) throw new Error('useSessions outside <SessionsProvider>')
  return state
}

/** Before the person picks one: their own latest open conversation, else the latest agent run still open. */
function defaultConversation(sessions: readonly Session[]): Session | null {
  const open = sessions.filter((session) => session.endedAt === null)
  const mine = open.filter((session) => session.origin === 'person')
  return mine[mine.length - 1] ?? open[open.length - 1] ?? sessions[sessions.length - 1] ?? null
}
