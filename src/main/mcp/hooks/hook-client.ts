import { resolve } from 'node:path'
import { quoteWord } from '../../core/permissions/command-words'
import { shQuote as shellWord } from '../../core/shell/posix-quote'

/** What a hook asks about: one shell command an agent is about to run with its own tool. */
export interface ShellQuestion {
  command: string
  description?: string
  /** The agent's own session id (one Shellgate session per agent session). */
  agentSessionId: string
  /** Where the agent runs the command. */
  cwd: string
  /** The tool's input as the client sent it: a rewrite keeps every other field. */
  toolInput: Record<string, unknown>
  /** The client's own timeout for this tool call, in ms, when it names one. */
  timeoutMs?: number
  /** It runs on (or types into) a terminal the agent drives later: never read-only. */
  terminal?: boolean
  /** The tool cannot be given another command (input typed into a running terminal). */
  cannotRewrite?: boolean
}

export type ParsedHookInput =
  | { kind: 'shell'; question: ShellQuestion }
  /** Not a shell tool: the hook has no opinion and the client goes on as it would. */
  | { kind: 'other' }
  | { kind: 'invalid'; reason: string }
  /** Settled without asking the hub (input that types nothing into a terminal only reads it). */
  | { kind: 'answered'; answer: HookAnswer }

export interface HookAnswer {
  decision: 'allow' | 'deny' | 'ask'
  reason: string
  /**
   * For an allowed command the client rewrites: what its shell tool runs instead (`shellgate
   * ticket T`), and the tool input it replaces the command in.
   */
  rewrite?: { command: string; toolInput: Record<string, unknown> }
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
  /**
   * The client replaces its tool's input with the hook's (Claude Code's updatedInput, Codex's
   * updatedInput, Gemini CLI's hookSpecificOutput.tool_input; each checked against the real CLI),
   * so an allowed command can run in Shellgate instead of the agent's own shell.
   */
  canRewrite: boolean
  /**
   * The matcher `shellgate connect` writes into the client's hook config: every tool but the ones
   * this hook knows start no shell (issue 20.2), so a shell tool the client adds later reaches the
   * hook, which judges it, instead of running unseen.
   */
  matcher: string
}

/**
 * A JavaScript regex (Claude Code and Gemini CLI test matchers with one, unanchored) that matches
 * every tool name except these exact ones and MCP tools (`mcpPrefix…`: their servers' business).
 */
export function everyToolBut(names: ReadonlySet<string>, mcpPrefix: string): string {
  const escaped = [...names].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return `^(?!(?:${escaped.join('|')})$|${mcpPrefix}).`
}

/**
 * A tool Shellgate does not know that looks like one that starts or feeds a shell (a name a
 * client adds later, issue 20.2): never "no opinion", since it would run unseen. MCP tools (names
 * with `__`, or `mcp…`) are their servers' business, Shellgate's own included.
 */
export function unknownShellTool(
  toolName: string,
  toolInput: unknown,
  known: ReadonlySet<string>,
): ParsedHookInput | null {
  if (known.has(toolName) || toolName.includes('__') || /^mcp/i.test(toolName)) return null
  const looksLikeShell =
    /shell|bash|exec|terminal|stdin|pty|console|command|(?:^|_)run(?:_|$)|(?:^|_)sh(?:_|$)/i.test(toolName)
  const takesCommand =
    isRecord(toolInput) && ['command', 'cmd', 'chars', 'script'].some((field) => field in toolInput)
  if (!looksLikeShell && !takesCommand) return null
  return {
    kind: 'invalid',
    reason: `${toolName} looks like a tool that starts or feeds a shell, and Shellgate does not know it, so it cannot judge what it runs`,
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The fields the clients share: session_id, cwd, tool_input.command (a string, or an argv that
 * runs without a shell), and the tool's own working-directory field when it has one (Gemini's
 * dir_path/directory, Codex's workdir). The command asked about is the one that really runs:
 * an argv is quoted word for word (joined with spaces, `["find", ".", "#", "-delete"]` would read
 * as `find .` and a comment), and a working directory other than cwd becomes a leading `cd` (absolute, so never an option), so
 * the verdict, the rules and the person's card all see where it runs.
 */
export function shellQuestionFrom(
  input: Record<string, unknown>,
  toolInput: unknown,
  workdirFields: readonly string[] = [],
): ParsedHookInput {
  if (!isRecord(toolInput)) return { kind: 'invalid', reason: 'tool_input is not an object' }
  // Codex's model-facing exec_command names it cmd.
  const raw = toolInput.command ?? toolInput.cmd
  const command =
    typeof raw === 'string'
      ? raw
      : Array.isArray(raw) && raw.length > 0 && raw.every((part) => typeof part === 'string')
        ? commandOfArgv(raw)
        : null
  if (command === null) return { kind: 'invalid', reason: 'tool_input.command is not a string' }
  const cwd = typeof input.cwd === 'string' && input.cwd !== '' ? input.cwd : null
  if (!cwd) return { kind: 'invalid', reason: 'cwd is missing' }
  const workdir = workdirOf(toolInput, workdirFields, cwd)
  if (!workdir.ok) return { kind: 'invalid', reason: workdir.reason }
  const sessionId =
    typeof input.session_id === 'string' && input.session_id !== '' ? input.session_id : 'default'
  const description = typeof toolInput.description === 'string' ? toolInput.description : undefined
  const timeout = toolInput.timeout
  const timeoutMs =
    typeof timeout === 'number' && Number.isSafeInteger(timeout) && timeout > 0
      ? Math.min(timeout, 600_000)
      : undefined
  return {
    kind: 'shell',
    question: {
      command: workdir.dir === null ? command : `cd ${shellWord(workdir.dir)} && ${command}`,
      ...(description ? { description: description.slice(0, 1_000) } : {}),
      agentSessionId: sessionId.slice(0, 200),
      cwd,
      toolInput,
      ...(timeoutMs ? { timeoutMs } : {}),
      ...(toolInput.tty === true ? { terminal: true } : {}),
    },
  }
}

/**
 * The shell text that runs exactly this argv. `bash -c SCRIPT` (what Codex sends) is the script
 * itself; anything else is each word quoted, the first one also when it has a `=` (unquoted,
 * `X=1 rm` would read as an assignment before `rm`, while the argv runs a program named `X=1`).
 */
function commandOfArgv(argv: readonly string[]): string {
  const [program, flag, script] = argv
  if (argv.length === 3 && script !== undefined && isBash(program) && (flag === '-c' || flag === '-lc'))
    return script
  return argv
    .map((word, index) => (index === 0 && word.includes('=') ? shellWord(word) : quoteWord(word)))
    .join(' ')
}

function isBash(program: string | undefined): boolean {
  return program === 'bash' || program === '/bin/bash' || program === '/usr/bin/bash'
}

/** The tool's own working directory, absolute; null when it names none or names cwd itself. */
function workdirOf(
  toolInput: Record<string, unknown>,
  fields: readonly string[],
  cwd: string,
): { ok: true; dir: string | null } | { ok: false; reason: string } {
  const dirs = new Set<string>()
  for (const field of fields) {
    const value = toolInput[field]
    if (value === undefined || value === null || value === '') continue
    if (typeof value !== 'string') return { ok: false, reason: `tool_input.${field} is not a string` }
    dirs.add(resolve(cwd, value))
  }
  // Which one the client would use is its business; two different answers are not ours to pick.
  if (dirs.size > 1)
    return { ok: false, reason: `tool_input names two working directories (${fields.join(', ')})` }
  const [dir] = dirs
  return { ok: true, dir: dir === undefined || dir === resolve(cwd) ? null : dir }
}
