import { type ListeningSocket, listeningSockets } from './listening-ports'
import { openPortForward, type PortForward } from './port-forward'
import { TaskError, taskNotFound } from './task-error'
import type { TaskRegistry } from './task-registry'
import { netNamespaceOf, taskProcesses } from './task-processes'

/** How often running tasks are looked at for new listening ports (for the desk's "Open" button). */
export const PORT_SCAN_INTERVAL_MS = 2_000

export interface TaskPortView {
  port: number
  /** The host's 127.0.0.1 port the person opened for it; null while it is not open. */
  openedAt: number | null
}

export interface TaskPorts {
  /** The ports a task listens on now (as last scanned) and the ones the person opened. */
  ports(taskId: string): TaskPortView[]
  /** Looks again now (a wait or a list that must not lag the scan). */
  scan(taskId: string): Promise<TaskPortView[]>
  /** The person opens a listening port on the host's loopback; returns the host port. */
  open(taskId: string, port: number): Promise<number>
  close(taskId: string, port: number): Promise<void>
  onChange(listener: (taskId: string) => void): () => void
  dispose(): Promise<void>
}

interface PortRecord {
  listening: ListeningSocket[]
  /** port → the forward, or 'direct' when the task shares the host's network and needs none. */
  opened: Map<number, PortForward | 'direct'>
}

export function createTaskPorts(options: {
  registry: TaskRegistry
  platform: NodeJS.Platform
  scanIntervalMs?: number
  onProblem?: (message: string) => void
}): TaskPorts {
  const { registry, platform } = options
  const records = new Map<string, PortRecord>()
  const listeners = new Set<(taskId: string) => void>()
  const changed = (taskId: string) => {
    for (const listener of listeners) listener(taskId)
  }
  const recordOf = (taskId: string) => {
    let record = records.get(taskId)
    if (!record) {
      record = { listening: [], opened: new Map() }
      records.set(taskId, record)
    }
    return record
  }
  const view = (record: PortRecord | undefined): TaskPortView[] => {
    if (!record) return []
    const ports = new Set([...record.listening.map((socket) => socket.port), ...record.opened.keys()])
    return [...ports]
      .sort((a, b) => a - b)
      .map((port) => {
        const opened = record.opened.get(port)
        return { port, openedAt: opened === undefined ? null : opened === 'direct' ? port : opened.hostPort }
      })
  }

  const scan = async (taskId: string): Promise<TaskPortView[]> => {
    const task = registry.get(taskId)
    const owner = registry.processOf(taskId)
    if (!task || !owner || task.status !== 'running') return view(records.get(taskId))
    const listening = (await listeningSockets(await taskProcesses(owner, platform), platform)).filter(
      (socket) => !owner.sandboxPorts.includes(socket.port),
    )
    const record = recordOf(taskId)
    const before = record.listening.map((socket) => socket.port).join(',')
    record.listening = listening
    if (listening.map((socket) => socket.port).join(',') !== before) changed(taskId)
    return view(record)
  }

  const closeAll = async (taskId: string) => {
    const record = records.get(taskId)
    if (!record) return
    records.delete(taskId)
    await Promise.all(
      [...record.opened.values()].map((forward) => (forward === 'direct' ? undefined : forward.close())),
    )
  }

  const stopRegistry = registry.onEvent((event) => {
    if (event.type === 'completed') void closeAll(event.task.taskId)
  })
  const running = new Set<string>()
  const stopTracking = registry.onEvent((event) => {
    if (event.type === 'started') running.add(event.task.taskId)
    else running.delete(event.task.taskId)
  })
  const timer = setInterval(() => {
    for (const taskId of running) void scan(taskId).catch(() => [])
  }, options.scanIntervalMs ?? PORT_SCAN_INTERVAL_MS)
  timer.unref()

  return {
    ports: (taskId) => view(records.get(taskId)),
    scan,
    async open(taskId, port) {
      const task = registry.get(taskId)
      if (!task) throw taskNotFound(taskId)
      if (task.status !== 'running') throw new TaskError('invalid_input', `Task ${taskId} is not running`)
      await scan(taskId)
      const record = recordOf(taskId)
      const socket = record.listening.find((entry) => entry.port === port)
      if (!socket) throw new TaskError('invalid_input', `Task ${taskId} does not listen on port ${port}`)
      const opened = record.opened.get(port)
      if (opened) return opened === 'direct' ? port : opened.hostPort
      // Sharing the host's network (no namespace of its own), the server is on 127.0.0.1 already.
      if (socket.namespace === null || socket.namespace === netNamespaceOf('self')) {
        record.opened.set(port, 'direct')
        changed(taskId)
        return port
      }
      const namespace = socket.namespace
      const forward = await openPortForward({
        port,
        pidInNamespace: async () => {
          const owner = registry.processOf(taskId)
          if (!owner || registry.get(taskId)?.status !== 'running') return null
          const pids = await taskProcesses(owner, platform)
          return pids.find((pid) => netNamespaceOf(pid) === namespace) ?? null
        },
        ...(options.onProblem ? { onProblem: options.onProblem } : {}),
      })
      // The task may have ended while the listener was opening.
      if (registry.get(taskId)?.status !== 'running') {
        await forward.close()
        throw new TaskError('invalid_input', `Task ${taskId} ended before the port was opened`)
      }
      recordOf(taskId).opened.set(port, forward)
      changed(taskId)
      return forward.hostPort
    },
    async close(taskId, port) {
      const record = records.get(taskId)
      const opened = record?.opened.get(port)
      if (!record || !opened)
        throw new TaskError('invalid_input', `Port ${port} of task ${taskId} is not open`)
      record.opened.delete(port)
      if (opened !== 'direct') await opened.close()
      changed(taskId)
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async dispose() {
      clearInterval(timer)
      stopRegistry()
      stopTracking()
      await Promise.all([...records.keys()].map(closeAll))
      listeners.clear()
    },
  }
}
