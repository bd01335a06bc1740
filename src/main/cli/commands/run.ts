import { constants as osConstants } from 'node:os'
import { resolve } from 'node:path'
import { statSync } from 'node:fs'
import { createExecutionPort, DEFAULT_TIMEOUT_MS, type ExecutionResult } from '../../core/exec'
import { INLINE_OUTPUT_LIMIT_BYTES } from '../../core/exec/bounded-collector'
import { integerFlag, parseCommandArgs } from '../args'
import type { CliCommand, CliIo } from '../command'
import { UsageError } from '../usage-error'

/** Exit codes a shell user already knows: timeout(1)'s 124, Ctrl-C's 130, "command not found" 127. */
export const EXIT_TIMED_OUT = 124
export const EXIT_CANCELLED = 130
export const EXIT_SPAWN_FAILED = 127

const USAGE = `Usage: shellgate run [--json] [--timeout MS] [--max-output BYTES] [--cwd DIR] [--env K=V]… -- FILE [ARGS…]

Runs FILE with ARGS directly (argv, never through a shell) under the executor's budgets.

The environment is clean: only PATH (from this shell) and the --env pairs reach FILE, plus
SHELLGATE_RUN_ID, the tag that lets the executor find and kill everything the run starts.

Options:
  --json              print one JSON object: {status, exitCode, exitSignal, stdout, stderr,
                      truncated, outputPath?, durationMs, error?}
  --timeout MS        wall-clock budget (default ${DEFAULT_TIMEOUT_MS}; 0 = none)
  --max-output BYTES  bytes kept from stdout and stderr together (default ${INLINE_OUTPUT_LIMIT_BYTES}); the rest is dropped
  --cwd DIR           working directory (default: the current one)
  --env K=V           add a variable (repeatable)

Exit code (with or without --json): FILE's own code; 128+N when it was killed by signal N;
${EXIT_TIMED_OUT} on timeout; ${EXIT_CANCELLED} when cancelled (SIGINT/SIGTERM to shellgate kill the whole tree first);
${EXIT_SPAWN_FAILED} when FILE could not be started; 2 for bad usage.`

export const runCommand: CliCommand = {
  usage: USAGE,
  async run(argv, io) {
    const { flags, positionals, rest } = parseCommandArgs('run', argv, {
      json: { type: 'boolean' },
      timeout: { type: 'string' },
      'max-output': { type: 'string' },
      cwd: { type: 'string' },
      env: { type: 'string', multiple: true },
    })
    if (positionals.length > 0) {
      throw new UsageError(
        `shellgate run: put the program after --, e.g. shellgate run -- ${positionals.join(' ')}`,
      )
    }
    const [file, ...args] = rest ?? []
    if (!file) throw new UsageError('shellgate run: missing program: shellgate run [options] -- FILE [ARGS…]')
    const timeoutMs = integerFlag('run', 'timeout', flags.timeout) ?? DEFAULT_TIMEOUT_MS
    const maxOutput = integerFlag('run', 'max-output', flags['max-output']) ?? INLINE_OUTPUT_LIMIT_BYTES
    const cwd = directoryFlag(io, flags.cwd)
    const env = cleanEnv(io, (flags.env as string[] | undefined) ?? [])

    const result = await createExecutionPort().execute({
      command: { mode: 'argv', file, args },
      cwd,
      env,
      timeoutMs,
      signal: io.signal,
      output: { mode: 'pipe', inlineLimitBytes: maxOutput },
    })
    if (flags.json) {
      io.stdout(`${JSON.stringify(jsonShape(result))}\n`)
    } else {
      io.stdout(result.stdout)
      io.stderr(result.stderr)
      if (result.status !== 'completed' && result.status !== 'failed')
        io.stderr(`shellgate run: ${result.errorMessage}\n`)
      if (result.truncated) io.stderr(`shellgate run: output truncated to ${maxOutput} bytes\n`)
    }
    return exitCodeOf(result)
  },
}

function directoryFlag(io: CliIo, value: unknown): string {
  const cwd = resolve(io.cwd, typeof value === 'string' ? value : '.')
  let isDirectory = false
  try {
    isDirectory = statSync(cwd).isDirectory()
  } catch {
    throw new UsageError(`shellgate run: --cwd ${cwd} does not exist`)
  }
  if (!isDirectory) throw new UsageError(`shellgate run: --cwd ${cwd} is not a directory`)
  return cwd
}

function cleanEnv(io: CliIo, pairs: string[]): Record<string, string> {
  const env: Record<string, string> = {}
  if (io.env.PATH !== undefined) env.PATH = io.env.PATH
  for (const pair of pairs) {
    const equals = pair.indexOf('=')
    if (equals <= 0 || pair.includes('\0')) {
      throw new UsageError(`shellgate run: --env expects NAME=VALUE, got "${pair}"`)
    }
    env[pair.slice(0, equals)] = pair.slice(equals + 1)
  }
  return env
}

function jsonShape(result: ExecutionResult) {
  return {
    status: result.status,
    exitCode: result.exitCode,
    exitSignal: result.exitSignal,
    stdout: result.stdout,
    stderr: result.stderr,
    truncated: result.truncated,
    ...(result.outputPath ? { outputPath: result.outputPath } : {}),
    durationMs: result.timings.totalMs,
    // Why it did not finish on its own (ENOENT, a timeout, a signal); a plain non-zero exit is data.
    ...(result.status === 'completed' || (result.status === 'failed' && result.exitCode !== null)
      ? {}
      : { error: { code: result.spawnError?.code ?? result.status, message: result.errorMessage ?? '' } }),
  }
}

export function exitCodeOf(result: ExecutionResult): number {
  switch (result.status) {
    case 'spawn_error':
      return EXIT_SPAWN_FAILED
    case 'timed_out':
      return EXIT_TIMED_OUT
    case 'cancelled':
      return EXIT_CANCELLED
    default:
      if (result.exitCode !== null) return result.exitCode
      return 128 + (result.exitSignal ? (osConstants.signals[result.exitSignal] ?? 0) : 0)
  }
}
