import { useCallback, useEffect, useState } from 'react'
import type { BackgroundTask } from '../../shared/ipc/domains/tasks'
import { useCoalescedEvent } from '../events/use-coalesced-event'
import { useEvent } from '../events/use-event'
import { errorMessage } from '../forms/field-errors'
import { useConnection } from '../connection/ConnectionProvider'
import { useClient } from '../rpc'

export interface LiveTaskOutput {
  totalBytes: number
  tail: string
  /** Renderer clock when the byte count last grew: the age of the last output ticks from here. */
  grewAt: number
}

export interface TasksState {
  tasks: BackgroundTask[] | null
  live: ReadonlyMap<string, LiveTaskOutput>
  error: string | null
  upsert(task: BackgroundTask): void
}

function newestFirst(a: BackgroundTask, b: BackgroundTask): number {
  return b.startedAt.localeCompare(a.startedAt)
}

/** Every background task, newest first: tasks.list, then tasks.updated upserts and coalesced tasks.output. */
export function useTasks(): TasksState {
  const client = useClient()
  const { generation } = useConnection()
  const [tasks, setTasks] = useState<BackgroundTask[] | null>(null)
  const [live, setLive] = useState<ReadonlyMap<string, LiveTaskOutput>>(new Map())
  const [error, setError] = useState<string | null>(null)

  const upsert = useCallback(
    (task: BackgroundTask) =>
      setTasks((list) => [...(list ?? []).filter((t) => t.id !== task.id), task].sort(newestFirst)),
    [],
  )
  useEffect(() => {
    let current = true
    if (generation > 0) setTasks(null)
    client.request('tasks.list', {}).then(
      (list) =>
        current &&
        setTasks((seen) => {
          const fresh = (seen ?? []).filter((t) => !list.some((u) => u.id === t.id))
          return [...list, ...fresh].sort(newestFirst)
        }),
      (failure: unknown) => current && setError(errorMessage(failure)),
    )
    return () => {
      current = false
    }
  }, [client, generation])
  useEvent('tasks.updated', upsert)
  useCoalescedEvent(
    'tasks.output',
    (event) => event.taskId,
    (batch) => {
      const now = Date.now()
      setLive((map) => {
        const next = new Map(map)
        for (const [taskId, event] of batch) {
          const previous = map.get(taskId)
          const grew = !previous || event.totalBytes > previous.totalBytes
          next.set(taskId, {
            totalBytes: event.totalBytes,
            tail: event.tail,
            grewAt: grew ? now : previous.grewAt,
          })
        }
        return next
      })
    },
  )
  return { tasks, live, error, upsert }
}
