import { createContext, type ReactNode, useContext, useEffect, useState } from 'react'
import type { LoginRefusalCode } from '../../shared/browser-login'
import type { ConnectionStatus } from '../../shared/ipc/websocket-client'
import type { ConnectedTransport } from '../transport'

export interface Connection {
  status: ConnectionStatus
  /**
   * Goes up each time the connection comes back after a drop. Everything loaded from main lists it
   * as a dependency, so a restarted server's state replaces what the window remembered.
   */
  generation: number
  /** Why the server turned this page's key down, once it has (status `refused`). */
  refusal: LoginRefusalCode | null
  /** Browser mode: log this page out (its key is ended on the server); null in Electron. */
  logOut: (() => void) | null
}

const ConnectionContext = createContext<Connection>({
  status: 'open',
  generation: 0,
  refusal: null,
  logOut: null,
})

export function ConnectionProvider({
  onStatus,
  logOut = null,
  children,
}: {
  onStatus: ConnectedTransport['onStatus']
  logOut?: ConnectedTransport['logOut']
  children: ReactNode
}) {
  const [connection, setConnection] = useState<Connection>({
    status: 'open',
    generation: 0,
    refusal: null,
    logOut,
  })
  useEffect(() => {
    if (!onStatus) return
    let dropped = false
    return onStatus((status, refusal) => {
      if (status === 'closed') dropped = true
      const reopened = status === 'open' && dropped
      if (reopened) dropped = false
      setConnection((previous) => ({
        ...previous,
        status,
        generation: reopened ? previous.generation + 1 : previous.generation,
        refusal,
      }))
    })
  }, [onStatus])
  return <ConnectionContext.Provider value={connection}>{children}</ConnectionContext.Provider>
}

export function useConnection(): Connection {
  return useContext(ConnectionContext)
}
