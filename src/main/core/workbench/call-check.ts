import type { BashCheck } from '../../../shared/ipc/domains/bash'
import type { PermissionMode } from '../../../shared/settings'
import type { decideCall } from './call-decision'
import type { LiveSession } from './session-service'

/** What run() would decide for this command now (mode, rules, trust); nothing runs, nothing is asked. */
export async function checkCall(
  session: LiveSession,
  command: string,
  mode: PermissionMode,
  decide: (session: LiveSession, command: string) => ReturnType<typeof decideCall>,
): Promise<BashCheck> {
  // The same answer run() gives an empty command: nothing to decide, nothing runs.
  if (command.trim() === '') {
    return {
      command,
      readOnly: true,
      reason: 'empty command',
      parts: [],
      wouldDo: 'run',
      decidedBy: 'empty',
      why: 'an empty command runs nothing',
      mode,
    }
  }
  const { verdict, decision } = await decide(session, command)
  const rule = decision.rules[0]
  return {
    command,
    readOnly: verdict.readOnly,
    reason: verdict.reason,
    parts: verdict.parts.map((part) => ({ text: part.text, readOnly: part.readOnly, reason: part.reason })),
    wouldDo: decision.outcome === 'allow' ? 'run' : decision.outcome,
    decidedBy: decision.basis,
    why: rule ? `${decision.reason} (rule "${rule.rule}")` : decision.reason,
    mode,
  }
}
