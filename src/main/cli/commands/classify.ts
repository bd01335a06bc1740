import { createInterface } from 'node:readline'
import type { CommandVerdict } from '../../core/bash/verdict'
import { suggestRules } from '../../core/permissions'
import { resolveShellgateHome } from '../../core/paths'
import { parseCommandArgs } from '../args'
import type { CliCommand, CliIo } from '../command'
import { UsageError } from '../usage-error'
import { type JudgedCommand, type RulesVerdict, rulesChecker } from './classify-rules'
import { commandArgument, resolveCwdFlag } from '../command-argument'
import { EXIT_CANCELLED } from './run'

const USAGE = [
  'Usage: shellgate classify [--json] [--cwd DIR] <command>',
  '       shellgate classify [--json] [--cwd DIR] -- <command words…>',
  '       shellgate classify --stdin [--cwd DIR]',
  '',
  '  Is the command provably read-only (it would run without asking), and if not, why and which',
  '  "always allow" rules would be offered; then what your rules (user, this workspace, this machine)',
  '  and mode do with it, and the rules that decide it.',
  '',
  '  --cwd DIR  the directory the command would run in (git safety is judged there; default: here)',
  '  --json     print one JSON verdict: {command, readOnly, permissionSafe, reason,',
  '             parts:[{text, readOnly, reason}], asks:[{kind, path, reason}], suggestedRules,',
  '             decision}; asks are what a read-only command reads that is asked about first (a',
  '             secret, a place outside the workspace, which is --cwd); decision is what your',
  '             rules for --cwd do with it: {outcome, reason, rules:[{behavior, rule, source, file,',
  '             matched}], untrustedWorkspaceRules}',
  '  --stdin    JSON Lines in (a JSON string or {"cmd": …} per line), one JSON verdict (as --json,',
  '             decision included) per line out, same order; a line that is not one of those gets',
  '             {"error": {code, message, line}}',
].join('\n')

/** A verdict echoes at most this much of a command or part; a 10 MB command must not come back whole. */
export const MAX_ECHO_CHARS = 4096

/** `text` cut to MAX_ECHO_CHARS, with a marker saying how much was left out. */
export function echoText(text: string): string {
  if (text.length <= MAX_ECHO_CHARS) return text
  return `${text.slice(0, MAX_ECHO_CHARS)}… (${text.length - MAX_ECHO_CHARS} more characters)`
}

export interface VerdictJson {
  command: string
  readOnly: boolean
  permissionSafe: boolean
  reason: string
  parts: Array<{ text: string; readOnly: boolean; reason: string }>
  /** What the command reads that is asked about first, even when it only reads. */
  asks: Array<{ kind: string; path: string; reason: string }>
  suggestedRules: string[]
}

export function verdictJson(verdict: CommandVerdict): VerdictJson {
  return {
    command: echoText(verdict.command),
    readOnly: verdict.readOnly,
    permissionSafe: verdict.permissionSafe,
    reason: echoText(verdict.reason),
    parts: verdict.parts.map((part) => ({
      text: echoText(part.text),
      readOnly: part.readOnly,
      reason: echoText(part.reason),
    })),
    asks: (verdict.asks ?? []).map((ask) => ({
      kind: ask.kind,
      path: echoText(ask.path),
      reason: echoText(ask.reason),
    })),
    suggestedRules: suggestRules(verdict),
  }
}

export const classifyCommandCli: CliCommand = {
  usage: USAGE,
  async run(argv, io) {
    const { flags, positionals, rest } = parseCommandArgs('classify', argv, {
      json: { type: 'boolean' },
      cwd: { type: 'string' },
      stdin: { type: 'boolean' },
    })
    const cwd = resolveCwdFlag('classify', flags.cwd, io.cwd)
    const pipe = watchBrokenStdout()
    if (flags.stdin) {
      if (positionals.length > 0 || rest !== null) {
        throw new UsageError('shellgate classify: --stdin reads commands from stdin; do not also give one')
      }
      if (io.stdin === null) throw new UsageError('shellgate classify: --stdin needs JSON Lines on stdin')
      await classifyLines(io.stdin, await rulesChecker(resolveShellgateHome(io.env), cwd), io, pipe)
      if (io.signal.aborted) {
        io.stderr('shellgate classify: interrupted; the remaining lines were not classified\n')
        return EXIT_CANCELLED
      }
      return 0
    }
    const command = commandArgument('classify', positionals, rest)
    // The person's rules for this folder too (issue 22.8): what would run, ask or be refused, and which rule says so.
    // One verdict, judged as a session working in --cwd would be (its workspace, your readable
    // folders): what it says and what the rules decide come from the same reading.
    const judge = await rulesChecker(resolveShellgateHome(io.env), cwd)
    const { verdict: judged, decision } = judge(command)
    const verdict = judgedJson({ verdict: judged, decision })
    io.stdout(flags.json ? `${JSON.stringify(verdict)}\n` : humanVerdict(verdict))
    return 0
  },
}

interface BrokenPipe {
  broken: boolean
}

let brokenStdout: BrokenPipe | null = null

/**
 * `shellgate classify --stdin … | head -1`: once the reader is gone, writes to stdout fail with
 * EPIPE, emitted as an error event that would crash with a stack trace. Installed once per process;
 * an EPIPE marks the pipe broken so the line loop stops and the command ends quietly.
 */
function watchBrokenStdout(): BrokenPipe {
  if (brokenStdout) return brokenStdout
  const state: BrokenPipe = { broken: false }
  brokenStdout = state
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
    state.broken = true
  })
  return state
}

/** How many input lines are classified between two turns of the event loop. */
const YIELD_EVERY_LINES = 256

async function classifyLines(
  stdin: NodeJS.ReadableStream,
  judge: (command: string) => JudgedCommand,
  io: CliIo,
  pipe: BrokenPipe,
): Promise<void> {
  let number = 0
  for await (const line of createInterface({ input: stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
    // Buffered lines arrive as microtasks, which never let a signal's handler run: yield now and
    // then, and stop at once when the CLI was signalled.
    if (number % YIELD_EVERY_LINES === 0) await new Promise((next) => setImmediate(next))
    if (io.signal.aborted) {
      ;(stdin as Partial<NodeJS.ReadStream>).destroy?.()
      return
    }
    if (pipe.broken) {
      // Nobody reads our answers any more; stop reading questions too, so the process can exit.
      ;(stdin as Partial<NodeJS.ReadStream>).destroy?.()
      return
    }
    number += 1
    if (line.trim() === '') continue
    const command = commandOfLine(line)
    const answer =
      typeof command === 'string'
        ? judgedJson(judge(command))
        : { error: { code: 'invalid_input', message: command.error, line: number } }
    io.stdout(`${JSON.stringify(answer)}\n`)
  }
}

function commandOfLine(line: string): string | { error: string } {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch (error) {
    return { error: `not JSON: ${error instanceof Error ? error.message : String(error)}` }
  }
  if (typeof value === 'string') return value
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'cmd' in value) {
    const cmd = (value as { cmd: unknown }).cmd
    if (typeof cmd === 'string') return cmd
    return { error: `"cmd" must be a string, got ${cmd === null ? 'null' : typeof cmd}` }
  }
  return { error: 'expected a JSON string or an object with a "cmd" string' }
}

function judgedJson({ verdict, decision }: JudgedCommand): VerdictJson & { decision: RulesVerdict } {
  return { ...verdictJson(verdict), decision }
}

function humanVerdict(verdict: VerdictJson & { decision: RulesVerdict }): string {
  const lines = [
    `${verdict.readOnly ? 'read-only' : 'not read-only'}: ${verdict.reason}`,
    // Issue 22.8: "permission-safe" is our word, not the person's; say what it means for their rules.
    verdict.permissionSafe
      ? 'rules: prefix, wildcard and exact rules can match it'
      : 'rules: only an exact rule can match it (Shellgate cannot tell every word it runs)',
  ]
  if (verdict.parts.length > 1) {
    for (const part of verdict.parts)
      lines.push(`  ${part.readOnly ? 'read-only ' : 'writes    '} ${part.text}  (${part.reason})`)
  }
  for (const ask of verdict.asks) lines.push(`asks first: ${ask.reason}`)
  if (verdict.suggestedRules.length > 0)
    lines.push(`always-allow suggestion: ${verdict.suggestedRules.join(', ')}`)
  const { decision } = verdict
  lines.push(`with your rules here: ${decision.outcome}: ${decision.reason}`)
  for (const rule of decision.rules)
    lines.push(
      `  ${rule.behavior} rule ${rule.rule}  (${rule.source}${rule.file ? `, ${rule.file}` : ''}; matched: ${echoText(rule.matched)})`,
    )
  if (decision.untrustedWorkspaceRules.length > 0)
    lines.push(
      `  not counted until you trust this workspace's rules: ${decision.untrustedWorkspaceRules.join(', ')}`,
    )
  return `${lines.join('\n')}\n`
}
