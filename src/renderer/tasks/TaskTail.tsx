import { useEffect, useMemo, useState } from 'react'
import { createAnsiDocument } from '../ansi/ansi-document'
import { FormError } from '../forms/FormError'
import { errorMessage } from '../forms/field-errors'
import { VirtualOutput } from '../output/VirtualOutput'
import { useConnection } from '../connection/ConnectionProvider'
import { useClient } from '../rpc'
import type { LiveTaskOutput } from './TasksProvider'

interface Tail {
  text: string
  totalBytes: number
}

/** Whichever has seen more bytes is newer: a slow tasks.tail must not overwrite a later event. */
function newer(a: Tail | null, b: Tail): Tail {
  return a && a.totalBytes > b.totalBytes ? a : b
}

/** The last 8 KiB when opened (tasks.tail), then whatever tasks.output brings; pinned to the newest line. */
export function TaskTail({
  sessionId,
  taskId,
  live,
}: {
  sessionId: string
  taskId: string
  live: LiveTaskOutput | undefined
}) {
  const client = useClient()
  const { generation } = useConnection()
  const [tail, setTail] = useState<Tail | null>(null)
  const [error, setError] = useState<string>()
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new connection generation means read the tail again.
  useEffect(() => {
    let current = true
    client.request('tasks.tail', { sessionId, taskId }).then(
      (slice) =>
        current && setTail((seen) => newer(seen, { text: slice.text, totalBytes: slice.totalBytes })),
      (failure: unknown) => current && setError(errorMessage(failure)),
    )
    return () => {
      current = false
    }
  }, [client, sessionId, taskId, generation])
  useEffect(() => {
    if (live) setTail((seen) => newer(seen, { text: live.tail, totalBytes: live.totalBytes }))
  }, [live])

  const output = useMemo(() => createAnsiDocument(tail?.text ?? ''), [tail])
  if (error) return <FormError message={`Could not read the output: ${error}`} />
  if (!tail) return <p className="muted">Loading output…</p>
  if (tail.text === '') return <p className="muted">No output yet.</p>
  return <VirtualOutput document={output} label="Task output" follow />
}
