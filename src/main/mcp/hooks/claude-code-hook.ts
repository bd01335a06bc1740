import { everyToolBut, type HookClient, isRecord, shellQuestionFrom, unknownShellTool } from './hook-client'

/** Claude Code's tools that start no shell (BashOutput and KillShell only read or end one it ran). */
const OTHER_TOOLS = new Set([
  'Read',
  'Write',
  'Edit',
  'MultiEdit',
  'Glob',
  'Grep',
  'LS',
  'WebFetch',
  'WebSearch',
  'Task',
  'Agent',
  'TodoWrite',
  'NotebookEdit',
  'NotebookRead',
  'BashOutput',
  'KillShell',
  'KillBash',
  'ExitPlanMode',
  'SlashCommand',
  'Skill',
  'AskUserQuestion',
])

/**
 * Claude Code's PreToolUse hook: stdin {session_id, cwd, hook_event_name, tool_name, tool_input};
 * stdout {hookSpecificOutput: {hookEventName, permissionDecision: allow|deny|ask,
 * permissionDecisionReason, updatedInput}}. On `ask` Claude shows its own prompt, so that is the
 * safe fallback. With `allow`, updatedInput replaces the tool input (Claude Code 2.1.332 runs it).
 */
export const claudeCodeHook: HookClient = {
  agentName: 'claude-code',
  undecided: 'ask',
  canRewrite: true,
  // Claude Code reads a matcher with characters other than letters, digits, `_`, `|` and `,` as a
  // JavaScript regex (2.1.332): every tool but the known ones and MCP tools (mcp__server__tool).
  matcher: everyToolBut(OTHER_TOOLS, 'mcp__'),
  parse(input) {
    if (!isRecord(input)) return { kind: 'invalid', reason: 'the hook input is not a JSON object' }
    if (input.hook_event_name !== undefined && input.hook_event_name !== 'PreToolUse')
      return { kind: 'other' }
    if (typeof input.tool_name !== 'string') return { kind: 'other' }
    if (input.tool_name !== 'Bash')
      return unknownShellTool(input.tool_name, input.tool_input, OTHER_TOOLS) ?? { kind: 'other' }
    return shellQuestionFrom(input, input.tool_input)
  },
  render({ decision, reason, rewrite }) {
    return {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: decision,
        permissionDecisionReason: reason,
        ...(rewrite ? { updatedInput: { ...rewrite.toolInput, command: rewrite.command } } : {}),
      },
    }
  },
  noOpinion: () => ({}),
}
