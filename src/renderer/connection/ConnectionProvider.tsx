import { createContext, type ReactNode, useContext, useEffect, useState } from 'react'
import type { ConnectionStatus } from '../../shared/ipc/websocket-client'
import type { ConnectedTransport } from '../transport'

export interface Connection {
  status: ConnectionStatus
  /**
   * Goes up each time the connection comes back after a drop. Everything loaded from main lists it
   * as a dependency, so a restarted server's state replaces what the window remembered.
   */
  generation: number
}

const ConnectionContext = createContext<Connection>({ status: 'open', generation: 0 })

export function ConnectionProvider({
  onStatus,
  children,
}: {
  onStatus: ConnectedTransport['onStatus']
  children: ReactNode
}) {
  const [connection, setConnection] = useState<Connection>({ status: 'open', generation: 0 })
  useEffect(() => {
    if (!onStatus) return
    let dropped = false
    return onStatus((status) => {
      if (status === 'closed') dropped = true
      const reopened = status === 'open' && dropped
      if (reopened) dropped = false
      setConnection((previous) => ({
        status,
        generation: reopened ? previous.generation + 1 : previous.generation,
      }))
    })
  }, [onStatus])
  return <ConnectionContext.Provider value={connection}>{children}</ConnectionContext.Provider>
}

export function useConnection(): Connection {
  return useContext(ConnectionContext)
}
