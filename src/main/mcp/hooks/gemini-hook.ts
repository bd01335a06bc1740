import { everyToolBut, type HookClient, isRecord, shellQuestionFrom, unknownShellTool } from './hook-client'

/** Gemini CLI's tools that start no shell: files, search, the web, memory, plans. */
const OTHER_TOOLS = new Set([
  'read_file',
  'read_many_files',
  'write_file',
  'replace',
  'glob',
  'search_file_content',
  'list_directory',
  'web_fetch',
  'google_web_search',
  'save_memory',
  'write_todos',
  'activate_skill',
])

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
  // Gemini CLI 0.61 tests a matcher as `new RegExp(matcher)` (a bad one only matches itself):
  // every tool but the known ones and MCP tools (mcp_server_tool).
  matcher: everyToolBut(OTHER_TOOLS, 'mcp_'),
  parse(input) {
    if (!isRecord(input)) return { kind: 'invalid', reason: 'the hook input is not a JSON object' }
    if (input.hook_event_name !== undefined && input.hook_event_name !== 'BeforeTool')
      return { kind: 'other' }
    if (typeof input.tool_name !== 'string') return { kind: 'other' }
    if (input.tool_name !== 'run_shell_command')
      return unknownShellTool(input.tool_name, input.tool_input, OTHER_TOOLS) ?? { kind: 'other' }
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
