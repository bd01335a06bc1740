import { type HookClient, isRecord, shellQuestionFrom } from './hook-client'

/**
 * Gemini CLI's BeforeTool hook: stdin {session_id, cwd, hook_event_name, tool_name:
 * "run_shell_command", tool_input: {command, description?}}; stdout {decision: allow|deny, reason}.
 * In non-interactive mode Gemini waits forever on `ask`, so an undecided command is denied.
 */
/** run_shell_command runs in this folder (relative to the project root): `dir_path`, formerly `directory`. */
const GEMINI_WORKDIR_FIELDS = ['dir_path', 'directory']

export const geminiHook: HookClient = {
  agentName: 'gemini-cli',
  undecided: 'deny',
  // Gemini CLI 0.61 merges hookSpecificOutput.tool_input into the tool's input before it runs.
  canRewrite: true,
  parse(input) {
    if (!isRecord(input)) return { kind: 'invalid', reason: 'the hook input is not a JSON object' }
    if (input.hook_event_name !== undefined && input.hook_event_name !== 'BeforeTool')
      return { kind: 'other' }
    if (input.tool_name !== 'run_shell_command') return { kind: 'other' }
    return shellQuestionFrom(input, input.tool_input, GEMINI_WORKDIR_FIELDS)
  },
  render({ decision, reason, rewrite }) {
    return {
      decision: decision === 'ask' ? 'deny' : decision,
      reason,
      ...(rewrite
        ? { hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: rewrite.command } } }
        : {}),
    }
  },
  noOpinion: () => ({}),
}
