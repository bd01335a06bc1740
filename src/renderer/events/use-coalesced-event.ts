import { useEffect, useRef } from 'react'
import type { EventName, EventPayload } from '../../shared/ipc/define'
import type { ShellgateContract } from '../../shared/ipc/contract'
import { useClient } from '../rpc'
import { createLatestByKeyBuffer } from './latest-by-key-buffer'

type C = ShellgateContract

/** Like useEvent, but keeps the newest payload per key and delivers batches at most ~20 times a second. */
export function useCoalescedEvent<E extends EventName<C>>(
  name: E,
  keyOf: (payload: EventPayload<C, E>) => string,
  onBatch: (batch: Map<string, EventPayload<C, E>>) => void,
): void {
  const client = useClient()
  const latest = useRef({ keyOf, onBatch })
  latest.current = { keyOf, onBatch }
  useEffect(() => {
    const buffer = createLatestByKeyBuffer<string, EventPayload<C, E>>((batch) =>
      latest.current.onBatch(batch),
    )
    const unsubscribe = client.on(name, (payload) => buffer.put(latest.current.keyOf(payload), payload))
    return () => {
      unsubscribe()
      buffer.dispose()
    }
  }, [client, name])
}
