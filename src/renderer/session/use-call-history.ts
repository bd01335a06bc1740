import { useEffect, useMemo, useState } from 'react'
import type { BashCall } from '../../shared/ipc/domains/bash'
import { errorMessage } from '../forms/field-errors'
import { useConnection } from '../connection/ConnectionProvider'
import { useClient } from '../rpc'
import { type CallProgress, upsertCall, useLiveCalls } from './LiveCallsProvider'

export interface CallHistory {
  calls: BashCall[] | null
  progress: ReadonlyMap<string, CallProgress>
  error: string | null
}

/**
 * One session's calls, oldest first: bash.history for what happened before this window opened,
 * overlaid with every bash.call event seen since (events are never older than the history).
 */
export function useCallHistory(sessionId: string): CallHistory {
  const client = useClient()
  const { generation } = useConnection()
  const live = useLiveCalls()
  const [history, setHistory] = useState<BashCall[] | null>(null)
  const [error, setError] = useState<string | null>(null)

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new connection generation means reload the history.
  useEffect(() => {
    let current = true
    setHistory(null)
    setError(null)
    client.request('bash.history', { sessionId }).then(
      (calls) => current && setHistory(calls),
      (failure: unknown) => current && setError(errorMessage(failure)),
    )
    return () => {
      current = false
    }
  }, [client, sessionId, generation])

  const seen = live.bySession.get(sessionId)
  const calls = useMemo(
    () => (history === null ? null : (seen ?? []).reduce(upsertCall, history)),
    [history, seen],
  )
  return { calls, progress: live.progress, error }
}
