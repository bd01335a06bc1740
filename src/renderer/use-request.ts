import { useCallback, useEffect, useState } from 'react'
import type { RequestInput, RequestName, RequestOutput } from '../shared/ipc/define'
import type { ShellgateContract } from '../shared/ipc/contract'
import { useConnection } from './connection/ConnectionProvider'
import { useClient } from './rpc'

type C = ShellgateContract

export interface RequestState<T> {
  data: T | null
  error: string | null
  loading: boolean
  reload: () => void
}

/** Loads once on mount (and on reload()); the params object is compared by its JSON form. */
export function useRequest<M extends RequestName<C>>(
  method: M,
  params: RequestInput<C, M>,
): RequestState<RequestOutput<C, M>> {
  const client = useClient()
  const { generation: connection } = useConnection()
  const [state, setState] = useState<{
    data: RequestOutput<C, M> | null
    error: string | null
    loading: boolean
    /** The params the data answers; differs from `key` in the render where the params changed. */
    loadedKey: string | null
  }>({
    data: null,
    error: null,
    loading: true,
    loadedKey: null,
  })
  const [generation, setGeneration] = useState(0)
  const key = JSON.stringify(params)

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for params; generation and connection force a reload.
  useEffect(() => {
    let current = true
    setState((previous) => ({ ...previous, loading: true }))
    client.request(method, JSON.parse(key)).then(
      (data) => current && setState({ data, error: null, loading: false, loadedKey: key }),
      (error: unknown) =>
        current &&
        setState({
          data: null,
          error: error instanceof Error ? error.message : String(error),
          loading: false,
          loadedKey: key,
        }),
    )
    return () => {
      current = false
    }
  }, [client, method, key, generation, connection])

  const reload = useCallback(() => setGeneration((g) => g + 1), [])
  // Loading from the very render in which the params change, so nothing reads old data as new.
  const { loadedKey: _loadedKey, ...rest } = state
  return { ...rest, loading: state.loading || state.loadedKey !== key, reload }
}
