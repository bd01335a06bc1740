import type { AuditLog } from '../settings/audit-log'
import type { TaskRegistry } from '../tasks/task-registry'
import type { TaskInputEntry, TerminalTasks } from '../tasks/terminal-tasks'
import type { SessionService } from './session-service'

/** The audit line keeps at most this much of what was typed; `input.bytes` is always the whole length. */
export const AUDITED_INPUT_MAX_CHARS = 1_000

/**
 * One audit line per input (issue 23.4): the task's command, who typed, how many bytes, and the
 * text, except when the terminal hid it (a password prompt), when there is none to write.
 * A person's keystrokes are one line per entry, written once it is sealed (Enter or a pause).
 */
export function auditTaskInput(input: {
  audit: AuditLog
  tasks: TaskRegistry
  terminals: TerminalTasks
  sessions: SessionService
}): () => void {
  const write = (entry: TaskInputEntry) => {
    const task = input.tasks.get(entry.taskId)
    let shell = ''
    let cwd = ''
    let agent: string | undefined
    try {
      const session = input.sessions.get(entry.sessionId)
      shell = session.record.shell.path
      cwd = session.cwd
      const who = session.record.agent
      if (who && entry.by === 'agent') agent = who.version ? `${who.name} ${who.version}` : who.name
    } catch {}
    void input.audit
      .append({
        session: entry.sessionId,
        command: task?.command ?? '',
        cwd,
        shell,
        verdict: 'allow',
        decidedBy: 'terminal_task',
        rule: null,
        ruleFile: null,
        approvedBy: null,
        status: 'input',
        exitCode: null,
        durationMs: null,
        bytes: entry.bytes,
        taskId: entry.taskId,
        input: {
          by: entry.by,
          bytes: entry.bytes,
          hidden: entry.hidden,
          ...(entry.hidden || entry.text === null
            ? {}
            : { text: entry.text.slice(0, AUDITED_INPUT_MAX_CHARS) }),
          ...(entry.closeStdin ? { closeStdin: true as const } : {}),
        },
        ...(agent ? { agent } : {}),
      })
      .catch(() => undefined)
  }
  return input.terminals.onInput((entry) => {
    if (entry.sealed) write(entry)
  })
}
