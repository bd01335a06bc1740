/** What a hook asks about: one shell command an agent is about to run with its own tool. */
export interface ShellQuestion {
  command: string
  description?: string
  /** The agent's own session id (one Shellgate session per agent session). */
  agentSessionId: string
  /** Where the agent runs the command. */
  cwd: string
}

export type ParsedHookInput =
  | { kind: 'shell'; question: ShellQuestion }
  /** Not a shell tool: the hook has no opinion and the client goes on as it would. */
  | { kind: 'other' }
  | { kind: 'invalid'; reason: string }

export interface HookAnswer {
  decision: 'allow' | 'deny' | 'ask'
  reason: string
}

/**
 * One agent's hook format. Each client differs in what it does when the hook cannot decide:
 * Claude Code has its own prompt (`ask`), Codex runs the tool on `ask` and Gemini CLI in
 * non-interactive mode waits forever on it, so those two get `deny` instead.
 */
export interface HookClient {
  /** How the agent appears in Shellgate's sessions and audit log. */
  agentName: string
  parse(input: unknown): ParsedHookInput
  /** The JSON object printed on stdout, and nothing else. */
  render(answer: HookAnswer): Record<string, unknown>
  /** Printed for a tool that is not a shell command. */
  noOpinion(): Record<string, unknown>
  /** What to answer when Shellgate cannot decide (hub down, error, nobody answered in time). */
  undecided: 'ask' | 'deny'
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The fields Claude Code and Codex share: session_id, cwd, tool_input.command (a string or argv). */
export function shellQuestionFrom(input: Record<string, unknown>, toolInput: unknown): ParsedHookInput {
  if (!isRecord(toolInput)) return { kind: 'invalid', reason: 'tool_input is not an object' }
  const raw = toolInput.command
  const command =
    typeof raw === 'string'
      ? raw
      : Array.isArray(raw) && raw.every((part) => typeof part === 'string')
        ? raw.join(' ')
        : null
  if (command === null) return { kind: 'invalid', reason: 'tool_input.command is not a string' }
  const cwd = typeof input.cwd === 'string' && input.cwd !== '' ? input.cwd : null
  if (!cwd) return { kind: 'invalid', reason: 'cwd is missing' }
  const sessionId =
    typeof input.session_id === 'string' && input.session_id !== '' ? input.session_id : 'default'
  const description = typeof toolInput.description === 'string' ? toolInput.description : undefined
  return {
    kind: 'shell',
    question: {
      command,
      ...(description ? { description: description.slice(0, 1_000) } : {}),
      agentSessionId: sessionId.slice(0, 200),
      cwd,
    },
  }
}
