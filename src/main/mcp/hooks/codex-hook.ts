import { type HookClient, isRecord, shellQuestionFrom } from './hook-client'

/** Codex names its shell tool `Bash` in hooks; older builds used the model-facing tool names. */
const SHELL_TOOLS = new Set(['Bash', 'shell', 'local_shell', 'exec_command'])
/** Its shell tools run in `workdir` when the model names one. */
const CODEX_WORKDIR_FIELDS = ['workdir']

/**
 * Codex's PreToolUse hook: the same stdin and stdout shape as Claude Code's. Codex runs the tool
 * when a hook answers `allow` or `ask`; only `deny` (or exit 2) blocks it. So Shellgate never
 * answers `ask` here: when nobody approves, or on any error, the answer is `deny` with the reason.
 * Codex runs a new or changed hook only after the user trusts it in /hooks.
 */
export const codexHook: HookClient = {
  agentName: 'codex',
  undecided: 'deny',
  // Codex 0.171 runs the updatedInput of an `allow` (its exec_command gets the new command).
  canRewrite: true,
  parse(input) {
    if (!isRecord(input)) return { kind: 'invalid', reason: 'the hook input is not a JSON object' }
    if (input.hook_event_name !== undefined && input.hook_event_name !== 'PreToolUse')
      return { kind: 'other' }
    if (typeof input.tool_name !== 'string' || !SHELL_TOOLS.has(input.tool_name)) return { kind: 'other' }
    return shellQuestionFrom(input, input.tool_input, CODEX_WORKDIR_FIELDS)
  },
  render({ decision, reason, rewrite }) {
    const updatedInput = rewrite
      ? {
          ...rewrite.toolInput,
          // An argv command (older builds) becomes one that runs the rewrite through a shell.
          command: Array.isArray(rewrite.toolInput.command)
            ? ['/bin/sh', '-c', rewrite.command]
            : rewrite.command,
        }
      : null
    return {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: decision === 'ask' ? 'deny' : decision,
        permissionDecisionReason: reason,
        ...(updatedInput ? { updatedInput } : {}),
      },
    }
  },
  noOpinion: () => ({}),
}
