import type { BashCall } from '../../../shared/ipc/domains/bash'
import type { TaskRegistry } from '../tasks/task-registry'
import type { auditBashCall } from './call-audit'
import type { CallSandbox } from './call-sandbox'
import type { LiveSession } from './session-service'

export interface BackgroundedCall {
  session: LiveSession
  call: BashCall
  decidedBy: string
  approvedBy: string | null
  unsandboxedByPerson: boolean
  sandbox: CallSandbox | null
}

/**
 * A backgrounded call's audit line says "backgrounded"; when its task ends, a second line, linked
 * by taskId, says how (exit, bytes, who stopped it), the session's history gets the same facts,
 * and the run's sandbox (its allowlist proxy) is released.
 */
export function trackBackgroundedCalls(
  tasks: TaskRegistry,
  publish: (session: LiveSession, call: BashCall) => Promise<void>,
  auditCall: (
    session: LiveSession,
    call: BashCall,
    extra: Parameters<typeof auditBashCall>[3],
  ) => ReturnType<typeof auditBashCall>,
): { add(taskId: string, entry: BackgroundedCall): void } {
  const backgrounded = new Map<string, BackgroundedCall>()
  // The registry lives and dies with the service's core, so the listener is never removed.
  tasks.onEvent((event) => {
    const entry = event.type === 'completed' ? backgrounded.get(event.task.taskId) : undefined
    if (!entry) return
    backgrounded.delete(event.task.taskId)
    // The tree is gone: this run's allowlist proxy can close.
    void entry.sandbox?.release().catch(() => undefined)
    const { task } = event
    const ended: BashCall = {
      ...entry.call,
      exitCode: task.exitCode,
      taskStatus: task.status,
      exitSignal: task.exitSignal,
      durationMs: task.elapsedMs,
      totalBytes: task.bytes,
    }
    void publish(entry.session, ended).catch(() => undefined)
    void auditCall(entry.session, ended, {
      decidedBy: entry.decidedBy,
      approvedBy: entry.approvedBy,
      unsandboxedByPerson: entry.unsandboxedByPerson,
      status: task.status === 'running' ? 'backgrounded' : task.status,
    }).catch(() => undefined)
  })
  return {
    add(taskId, entry) {
      backgrounded.set(taskId, entry)
    },
  }
}
