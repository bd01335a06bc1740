import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react'
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
  /** Tasks whose tail the user opened; kept here so it stays open across screen switches. */
  openTails: ReadonlySet<string>
  setTailOpen(taskId: string, open: boolean): void
}

const TasksContext = createContext<TasksState | null>(null)

function newestFirst(a: BackgroundTask, b: BackgroundTask): number {
  return b.startedAt.localeCompare(a.startedAt)
}

/**
 * Every background task, newest first: tasks.list, then tasks.updated upserts and coalesced
 * tasks.output. App-wide, so the session history can say how a backgrounded call's task ended and the
 * Tasks screen finds its open tails as it left them.
 */
export function TasksProvider({ children }: { children: ReactNode }) {
  const client = useClient()
  const { generation } = useConnection()
  const [tasks, setTasks] = useState<BackgroundTask[] | null>(null)
  const [live, setLive] = useState<ReadonlyMap<string, LiveTaskOutput>>(new Map())
  const [error, setError] = useState<string | null>(null)
  const [openTails, setOpenTails] = useState<ReadonlySet<string>>(new Set())
  const setTailOpen = useCallback(
    (taskId: string, open: boolean) =>
      setOpenTails((set) => {
        if (set.has(taskId) === open) return set
        const next = new Set(set)
        if (open) next.add(taskId)
        else next.delete(taskId)
        return next
      }),
    [],
  )

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
  const value = useMemo(
    () => ({ tasks, live, error, upsert, openTails, setTailOpen }),
    [tasks, live, error, upsert, openTails, setTailOpen],
  )
  return <TasksContext.Provider value={value}>{children}</TasksContext.Provider>
}

export function useTasks(): TasksState {
  const state = useContext(TasksContext)
  if (!state) throw new Error('useTasks outside <TasksProvider>')
  return state
}
