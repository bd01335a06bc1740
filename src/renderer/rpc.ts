import { createContext, useContext } from 'react'
import type { TypedClient } from '../shared/ipc/client'
import type { ShellgateContract } from '../shared/ipc/contract'

export type ShellgateClient = TypedClient<ShellgateContract>

export const ClientContext = createContext<ShellgateClient | null>(null)

export function useClient(): ShellgateClient {
  const client = useContext(ClientContext)
  if (!client) throw new Error('useClient outside <ClientContext.Provider>')
  return client
}
