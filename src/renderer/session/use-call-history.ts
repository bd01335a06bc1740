import { useEffect, useState } from 'react'
import type { BashCall } from '../../shared/ipc/domains/bash'
import { useCoalescedEvent } from '../events/use-coalesced-event'
import { useEvent } from '../events/use-event'
import { errorMessage } from '../forms/field-errors'
import { useClient } from '../rpc'
import { isLive } from './call-status'

export interface CallProgress {
  elapsedMs: number
  totalBytes: number
  lastOutputAgeMs: number | null
  tail: string
  /** Renderer clock when this progress arrived, so elapsed and age keep ticking between events. */
  receivedAt: number
}

export interface CallHistory {
  calls: BashCall[] | null
  progress: ReadonlyMap<string, CallProgress>
  error: string | null
}

function upsert(calls: BashCall[] | null, call: BashCall): BashCall[] {
  const list = calls ?? []
  const index = list.findIndex((c) => c.id === call.id)
  if (index === -1) return [...list, call]
  const next = list.slice()
  next[index] = call
  return next
}

/** One session's calls, oldest first: bash.history, then bash.call upserts and coalesced bash.progress. */
export function useCallHistory(sessionId: string): CallHistory {
  const client = useClient()
  const [calls, setCalls] = useState<BashCall[] | null>(null)
  const [progress, setProgress] = useState<ReadonlyMap<string, CallProgress>>(new Map())
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    let current = true
    setCalls(null)
    setProgress(new Map())
    setError(null)
    client.request('bash.history', { sessionId }).then(
      (history) =>
        current &&
        // Calls announced by events while history was loading are newer than the history: keep them.
        setCalls((seen) => (seen ?? []).reduce(upsert, history)),
      (failure: unknown) => current && setError(errorMessage(failure)),
    )
    return () => {
      current = false
    }
  }, [client, sessionId])

  useEvent('bash.call', (call) => {
    if (call.sessionId !== sessionId) return
    setCalls((list) => upsert(list, call))
    if (!isLive(call.status))
      setProgress((map) => {
        if (!map.has(call.id)) return map
        const next = new Map(map)
        next.delete(call.id)
        return next
      })
  })
  useCoalescedEvent(
    'bash.progress',
    (event) => event.callId,
    (batch) => {
      const receivedAt = Date.now()
      setProgress((map) => {
        const next = new Map(map)
        for (const [callId, event] of batch) {
          if (event.sessionId !== sessionId) continue
          const { elapsedMs, totalBytes, lastOutputAgeMs, tail } = event
          next.set(callId, { elapsedMs, totalBytes, lastOutputAgeMs, tail, receivedAt })
        }
        return next
      })
    },
  )
  return { calls, progress, error }
}
