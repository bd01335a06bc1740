import {
  type HookClient,
  isRecord,
  type ParsedHookInput,
  shellQuestionFrom,
  unknownShellTool,
} from './hook-client'

/** Codex names its shell tool `Bash` in hooks; older builds used the model-facing tool names. */
const SHELL_TOOLS = new Set([
  'Bash',
  'shell',
  'local_shell',
  'exec_command',
  'unified_exec',
  'container.exec',
])
/** Codex's tools that are no shell: files, patches, plans, images, the web, its own agents. */
const OTHER_TOOLS = new Set([
  'apply_patch',
  'update_plan',
  'view_image',
  'web_search',
  'read_file',
  'list_dir',
  'grep_files',
  'request_user_input',
  'spawn_agent',
  'send_input',
  'resume_agent',
  'close_agent',
  'list_agents',
  'wait',
])
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
  // Every tool (Codex 0.171 takes `*` for all; its matchers are not JavaScript regexes). Its shell
  // tools reach hooks as `Bash`, a tty or not; write_stdin reaches no hook at all in 0.171, under
  // any matcher (test/unit/mcp/hook-matchers-real-clis.test.ts), so typedInput below is for a
  // Codex that sends it.
  matcher: '*',
  parse(input) {
    if (!isRecord(input)) return { kind: 'invalid', reason: 'the hook input is not a JSON object' }
    if (input.hook_event_name !== undefined && input.hook_event_name !== 'PreToolUse')
      return { kind: 'other' }
    if (typeof input.tool_name !== 'string') return { kind: 'other' }
    if (input.tool_name === 'write_stdin') return typedInput(input)
    if (!SHELL_TOOLS.has(input.tool_name))
      return unknownShellTool(input.tool_name, input.tool_input, OTHER_TOOLS) ?? { kind: 'other' }
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
          ...('cmd' in rewrite.toolInput ? { cmd: rewrite.command } : {}),
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

/**
 * write_stdin types into a terminal exec_command started (issue 20.2): it feeds a shell, so it is
 * a shell tool. Nothing typed only reads what the terminal printed; anything else is judged as a
 * line typed into a shell on a terminal, never read-only, and it cannot be handed to Shellgate.
 */
function typedInput(input: Record<string, unknown>): ParsedHookInput {
  const toolInput = input.tool_input
  if (!isRecord(toolInput)) return { kind: 'invalid', reason: 'tool_input is not an object' }
  const chars = toolInput.chars ?? ''
  if (typeof chars !== 'string') return { kind: 'invalid', reason: 'tool_input.chars is not a string' }
  if (chars === '')
    return {
      kind: 'answered',
      answer: { decision: 'allow', reason: 'Shellgate: write_stdin types nothing; it only reads the output' },
    }
  const parsed = shellQuestionFrom(input, { ...toolInput, command: chars })
  if (parsed.kind !== 'shell') return parsed
  const session = typeof toolInput.session_id === 'number' || typeof toolInput.session_id === 'string'
  return {
    kind: 'shell',
    question: {
      ...parsed.question,
      description: `typed into terminal session ${session ? String(toolInput.session_id) : '(unnamed)'} of the agent's own shell`,
      terminal: true,
      cannotRewrite: true,
    },
  }
}
