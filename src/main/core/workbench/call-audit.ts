import type { AuditStatus } from '../../../shared/audit'
import type { BashCall } from '../../../shared/ipc/domains/bash'
import type { AuditLog } from '../settings/audit-log'
import type { LiveSession } from './session-service'

/** One audit line for a call as it stands: how it was decided, who approved it, how it ended. */
export const auditBashCall = (
  audit: AuditLog,
  session: LiveSession,
  call: BashCall,
  extra: {
    decidedBy: string
    approvedBy: string | null
    status?: AuditStatus
    unsandboxedByPerson?: boolean
  },
) =>
  audit.append({
    session: session.record.id,
    command: call.command,
    cwd: call.cwd,
    shell: session.record.shell.path,
    verdict: call.status === 'denied' ? 'deny' : 'allow',
    decidedBy: extra.decidedBy as never,
    rule: call.decision?.rule ?? null,
    ruleFile: call.decision?.ruleFile ?? null,
    approvedBy: extra.approvedBy,
    status:
      extra.status ??
      (call.status === 'waiting_for_approval' || call.status === 'running' ? 'cancelled' : call.status),
    exitCode: call.exitCode,
    durationMs: call.durationMs,
    bytes: call.totalBytes,
    ...(call.taskId ? { taskId: call.taskId } : {}),
    ...(call.sandbox ? { sandbox: call.sandbox } : {}),
    ...(extra.unsandboxedByPerson ? { unsandboxedByPerson: true as const } : {}),
    ...(session.record.agent ? { agent: agentName(session.record.agent) } : {}),
  })

/** How the audit log names an agent: its clientInfo name and full version. */
function agentName(agent: { name: string; version: string | null }): string {
  return agent.version ? `${agent.name} ${agent.version}` : agent.name
}
