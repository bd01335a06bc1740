import { type HookClient, isRecord, shellQuestionFrom } from './hook-client'

/**
 * Claude Code's PreToolUse hook: stdin {session_id, cwd, hook_event_name, tool_name, tool_input};
 * stdout {hookSpecificOutput: {hookEventName, permissionDecision: allow|deny|ask,
 * permissionDecisionReason}}. On `ask` Claude shows its own prompt, so that is the safe fallback.
 */
export const claudeCodeHook: HookClient = {
  agentName: 'claude-code',
  undecided: 'ask',
  parse(input) {
    if (!isRecord(input)) return { kind: 'invalid', reason: 'the hook input is not a JSON object' }
    if (input.hook_event_name !== undefined && input.hook_event_name !== 'PreToolUse')
      return { kind: 'other' }
    if (input.tool_name !== 'Bash') return { kind: 'other' }
    return shellQuestionFrom(input, input.tool_input)
  },
  render({ decision, reason }) {
    return {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: decision,
        permissionDecisionReason: reason,
      },
    }
  },
  noOpinion: () => ({}),
}
