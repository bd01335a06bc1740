import type { BashCall } from '../../../shared/ipc/domains/bash'
import type { PermissionMode } from '../../../shared/settings'
import { type ApprovalBroker, DENIAL_MESSAGES } from '../permissions/approval-broker'
import type { ApprovalDecision } from '../permissions/approval-broker-types'
import { matchesDomainPattern, patternProblem, suggestedPatterns } from '../sandbox/domain-pattern'
import type { EgressDecision, NetworkAnswer, NetworkAsker } from '../sandbox/egress-policy'
import type { SandboxNetworkInput } from '../sandbox/prepare-network'
import type { AuditLog } from '../settings/audit-log'
import type { NetworkRules } from './network-rules'
import type { LiveSession } from './session-service'

/**
 * How long a held connection waits for the person. Past it the card is withdrawn and the
 * destination refused for the rest of the command; tools wait longer than this for a proxy's
 * answer (npm 5 min, git and curl 5 min to connect), and a retry joins the card already shown.
 * The approvals.timeoutMs setting applies when it is shorter.
 */
export const NETWORK_ASK_TIMEOUT_MS = 60_000

export interface CallNetworkDeps {
  networkRules: NetworkRules
  approvals: ApprovalBroker
  audit: AuditLog
  /** The approvals.timeoutMs setting; 0 means no limit of its own. */
  approvalTimeoutMs: () => number
  mode: () => PermissionMode
}

/** A Bash call's network: its rules and ports, a card for each unlisted domain, an audit line per decision. */
export async function callNetwork(
  deps: CallNetworkDeps,
  session: LiveSession,
  call: BashCall,
): Promise<SandboxNetworkInput & { problem: string | null }> {
  const command = await deps.networkRules.forCommand(session.record.id, session.record.workspace)
  return {
    rules: command.rules,
    allowedPorts: command.allowedPorts,
    problem: command.problem,
    ask: askThePerson(deps, session, call),
    record: (decision) => auditNetworkDecision(deps.audit, session, call, decision),
  }
}

function askThePerson(deps: CallNetworkDeps, session: LiveSession, call: BashCall): NetworkAsker {
  return async (request, signal) => {
    const where = `${request.host}:${request.port}`
    const setting = deps.approvalTimeoutMs()
    const timeoutMs = setting > 0 ? Math.min(setting, NETWORK_ASK_TIMEOUT_MS) : NETWORK_ASK_TIMEOUT_MS
    const pending = deps.approvals.request(
      {
        sessionId: session.record.id,
        callId: call.id,
        command: call.command,
        cwd: call.cwd,
        shell: session.record.shell.path,
        mode: deps.mode(),
        why: {
          reason: `\`${call.command}\` wants ${where}, which is not on the network allowlist`,
          nonReadOnly: [],
          nearMiss: null,
          suggestedRules: suggestedPatterns(request.host),
        },
        sandbox: { profile: 'workspace-write', note: null, unsandboxedAllowed: false },
        network: { host: request.host, port: request.port, method: request.method },
      },
      {
        signal,
        timeoutMs,
        checkRule: (pattern) => patternProblem(pattern, request.host),
        coveredBy: (rule) => matchesDomainPattern(request.host, rule.rule),
        saveRule: async (change) => {
          const saved = await deps.networkRules.add({
            scope: change.scope as never,
            list: 'allow',
            pattern: change.rule,
            sessionId: session.record.id,
            workspace: session.record.workspace,
          })
          return { list: 'allow', rule: saved.pattern, scope: saved.scope, source: saved.source }
        },
      },
    )
    return answerOf(await pending.decision, where, timeoutMs)
  }
}

function answerOf(decision: ApprovalDecision, where: string, timeoutMs: number): NetworkAnswer {
  if (decision.behavior === 'allow') {
    const rule =
      decision.decidedBy === 'user_once'
        ? null
        : { pattern: decision.rule.rule, scope: decision.rule.scope as never, source: decision.rule.source }
    return { allowed: true, decidedBy: decision.decidedBy, approvedBy: decision.approvedBy, rule }
  }
  const messages: Record<typeof decision.decidedBy, string> = {
    user_deny: `the person denied ${where} for this command`,
    approval_timeout: `no one answered within ${Math.round(timeoutMs / 1000)} s whether this command may reach ${where}`,
    session_closed: `the session closed before anyone answered about ${where}`,
    cancelled: `the question about ${where} was withdrawn (the command ended)`,
  }
  const message =
    decision.decidedBy === 'user_deny' && decision.message !== DENIAL_MESSAGES.user_deny(0)
      ? `${messages.user_deny}: ${decision.message}`
      : messages[decision.decidedBy]
  return { allowed: false, decidedBy: decision.decidedBy, approvedBy: decision.approvedBy, message }
}

/** One audit line per distinct decision of a run: where the command wanted to go, and who let it or not. */
export function auditNetworkDecision(
  audit: AuditLog,
  session: LiveSession,
  call: BashCall,
  decision: EgressDecision,
) {
  const agent = session.record.agent
  return audit.append({
    session: session.record.id,
    command: call.command,
    cwd: call.cwd,
    shell: session.record.shell.path,
    verdict: decision.allowed ? 'allow' : 'deny',
    decidedBy: decision.decidedBy,
    rule: decision.rule,
    ruleFile: decision.ruleFile,
    approvedBy: decision.approvedBy,
    status: 'network',
    exitCode: null,
    durationMs: null,
    bytes: null,
    sandbox: 'workspace-write',
    network: {
      method: decision.method,
      host: decision.host,
      port: decision.port,
      reason: decision.reason.slice(0, 500),
    },
    ...(agent ? { agent: agent.version ? `${agent.name} ${agent.version}` : agent.name } : {}),
  })
}
