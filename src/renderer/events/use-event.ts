import { useEffect, useRef } from 'react'
import type { EventName, EventPayload } from '../../shared/ipc/define'
import type { ShellgateContract } from '../../shared/ipc/contract'
import { useClient } from '../rpc'

type C = ShellgateContract

/** Subscribes for the component's life; the latest listener is always called, without resubscribing. */
export function useEvent<E extends EventName<C>>(
  name: E,
  listener: (payload: EventPayload<C, E>) => void,
): void {
  const client = useClient()
  const latest = useRef(listener)
  latest.current = listener
  useEffect(() => client.on(name, (payload) => latest.current(payload)), [client, name])
}
