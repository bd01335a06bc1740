import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react'
import type { BashCall } from '../../shared/ipc/domains/bash'
import { useConnection } from '../connection/ConnectionProvider'
import { useCoalescedEvent } from '../events/use-coalesced-event'
import { useEvent } from '../events/use-event'
import { isLive } from './call-status'

export interface CallProgress {
  elapsedMs: number
  totalBytes: number
  lastOutputAgeMs: number | null
  tail: string
  /** Renderer clock when this progress arrived, so elapsed and age keep ticking between events. */
  receivedAt: number
}

export interface LiveCalls {
  /** Every call seen in a bash.call event since the window opened, per session, in arrival order. */
  bySession: ReadonlyMap<string, readonly BashCall[]>
  progress: ReadonlyMap<string, CallProgress>
}

const LiveCallsContext = createContext<LiveCalls | null>(null)

export function upsertCall(calls: readonly BashCall[], call: BashCall): BashCall[] {
  const index = calls.findIndex((c) => c.id === call.id)
  if (index === -1) return [...calls, call]
  const next = calls.slice()
  next[index] = call
  return next
}

/**
 * Listens app-wide, so a call that starts running while another screen is open (the user was on
 * Approvals answering it) is not missed when the Session screen mounts again.
 */
export function LiveCallsProvider({ children }: { children: ReactNode }) {
  const [bySession, setBySession] = useState<ReadonlyMap<string, readonly BashCall[]>>(new Map())
  const [progress, setProgress] = useState<ReadonlyMap<string, CallProgress>>(new Map())
  const { generation } = useConnection()

  // After a reconnect the server may have restarted and its calls died with it: what it reports
  // from now on is the truth, and a call frozen at "running" would not be.
  useEffect(() => {
    if (generation === 0) return
    setBySession(new Map())
    setProgress(new Map())
  }, [generation])

  useEvent('bash.call', (call) => {
    setBySession((map) => new Map(map).set(call.sessionId, upsertCall(map.get(call.sessionId) ?? [], call)))
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
        for (const [callId, { elapsedMs, totalBytes, lastOutputAgeMs, tail }] of batch)
          next.set(callId, { elapsedMs, totalBytes, lastOutputAgeMs, tail, receivedAt })
        return next
      })
    },
  )
  const value = useMemo(() => ({ bySession, progress }), [bySession, progress])
  return <LiveCallsContext.Provider value={value}>{children}</LiveCallsContext.Provider>
}

export function useLiveCalls(): LiveCalls {
  const state = useContext(LiveCallsContext)
  if (!state) throw new Error('useLiveCalls outside <LiveCallsProvider>')
  return state
}
