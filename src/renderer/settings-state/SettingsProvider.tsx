import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react'
import type { SettingsSnapshot } from '../../shared/ipc/domains/settings'
import { useEvent } from '../events/use-event'
import { errorMessage } from '../forms/field-errors'
import { useConnection } from '../connection/ConnectionProvider'
import { useClient } from '../rpc'
import { useSessions } from '../session/SessionsProvider'

export interface SettingsState {
  snapshot: SettingsSnapshot | null
  error: string | null
  /** Every settings.* mutation answers with the new snapshot; apply it without another round trip. */
  apply(snapshot: SettingsSnapshot): void
  /** Re-reads after a change made elsewhere (an always-allow answer saves a rule). */
  reload(): void
}

const SettingsContext = createContext<SettingsState | null>(null)

/** One settings snapshot for the app (banner, Settings panels), including the selected session's rules. */
export function SettingsProvider({ children }: { children: ReactNode }) {
  const client = useClient()
  const { generation: connection } = useConnection()
  const sessionId = useSessions().selected?.id
  const [snapshot, setSnapshot] = useState<SettingsSnapshot | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [generation, setGeneration] = useState(0)

  // biome-ignore lint/correctness/useExhaustiveDependencies: generation (settings.changed) and connection force a reload.
  useEffect(() => {
    let current = true
    client.request('settings.get', sessionId ? { sessionId } : {}).then(
      (next) => {
        if (!current) return
        setSnapshot(next)
        setError(null)
      },
      (failure: unknown) => current && setError(errorMessage(failure)),
    )
    return () => {
      current = false
    }
  }, [client, sessionId, generation, connection])
  useEvent('settings.changed', () => setGeneration((g) => g + 1))

  const apply = useCallback((next: SettingsSnapshot) => setSnapshot(next), [])
  const reload = useCallback(() => setGeneration((g) => g + 1), [])
  const value = useMemo(() => ({ snapshot, error, apply, reload }), [snapshot, error, apply, reload])
  return <SettingsContext.Provider value={value}>{children}</SettingsContext.Provider>
}

export function useSettings(): SettingsState {
  const state = useContext(SettingsContext)
  if (!state) throw new Error('useSettings outside <SettingsProvider>')
  return state
}
