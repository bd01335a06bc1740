import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react'
import type { PendingApproval } from '../../shared/ipc/domains/approvals'
import { useEvent } from '../events/use-event'
import { errorMessage } from '../forms/field-errors'
import { useConnection } from '../connection/ConnectionProvider'
import { useClient } from '../rpc'
import { oldestFirst } from './approval-key-policy'

export interface PendingApprovalsState {
  pending: PendingApproval[] | null
  error: string | null
  /** Drops a card at once after a successful answer; approvals.resolved would drop it too. */
  forget(id: string): void
  /** What the last answer did beyond its own card (a saved rule answering others), for the frame to say. */
  notice: string | null
  announce(message: string | null): void
  /** The command the person allowed last, so Esc and Ctrl+B can stop it or move it to the background. */
  allowed: AllowedCall | null
  noteAllowed(call: AllowedCall | null): void
}

export interface AllowedCall {
  sessionId: string
  callId: string
  command: string
}

const APP_TITLE = 'Shellgate'

/** A background tab shows only its title: "(2) Shellgate" says something is waiting without opening it. */
function usePendingCountInTitle(count: number): void {
  useEffect(() => {
    document.title = count > 0 ? `(${count}) ${APP_TITLE}` : APP_TITLE
  }, [count])
}

const PendingApprovalsContext = createContext<PendingApprovalsState | null>(null)

/** App-wide and oldest first, so the nav badge counts live even while another screen is open. */
export function PendingApprovalsProvider({ children }: { children: ReactNode }) {
  const client = useClient()
  const { generation } = useConnection()
  const [pending, setPending] = useState<PendingApproval[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [notice, announce] = useState<string | null>(null)
  const [allowed, noteAllowed] = useState<AllowedCall | null>(null)

  useEffect(() => {
    let current = true
    if (generation > 0) setPending(null)
    client.request('approvals.list', {}).then(
      (list) =>
        current &&
        // Events may have arrived while the list was loading: keep them, without duplicates.
        setPending((seen) =>
          oldestFirst([...list, ...(seen ?? []).filter((a) => !list.some((b) => b.id === a.id))]),
        ),
      (failure: unknown) => current && setError(errorMessage(failure)),
    )
    return () => {
      current = false
    }
  }, [client, generation])

  useEvent('approvals.requested', (approval) =>
    setPending((list) =>
      list?.some((a) => a.id === approval.id) ? list : oldestFirst([...(list ?? []), approval]),
    ),
  )
  usePendingCountInTitle(pending?.length ?? 0)
  const forget = useCallback(
    (id: string) => setPending((list) => list?.filter((a) => a.id !== id) ?? null),
    [],
  )
  useEvent('approvals.resolved', ({ id }) => forget(id))

  const value = useMemo(
    () => ({ pending, error, forget, notice, announce, allowed, noteAllowed }),
    [pending, error, forget, notice, allowed],
  )
  return <PendingApprovalsContext.Provider value={value}>{children}</PendingApprovalsContext.Provider>
}

export function usePendingApprovals(): PendingApprovalsState {
  const state = useContext(PendingApprovalsContext)
  if (!state) throw new Error('usePendingApprovals outside <PendingApprovalsProvider>')
  return state
}
