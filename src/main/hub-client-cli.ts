import { fstatSync, readSync, writeSync } from 'node:fs'
import { runHookCommand } from './cli/commands/hook'
import { EXIT_USAGE, UsageError } from './cli/usage-error'
import { sanitizeProcessEnvInPlace } from './core/env/sanitize-entry'
import { HOOK_INPUT_MAX_BYTES } from './mcp/hooks/hook-limits'
import type { HookInput } from './mcp/hooks/run-hook'

/**
 * The commands that only talk to a running hub, on the path of every command an agent makes
 * (issue 20.6): `hook` before it, `ticket` to run it, and `exec` with a hub. bin/shellgate.js
 * loads this CommonJS bundle (hub-client-cli.vite.config.ts) for them instead of the CLI's command
 * table and ES module chunks: the hook's whole path in this file, `ticket` and `exec` in chunks
 * loaded when they run. They are the same commands, with the same checks; importing this module
 * does nothing (none of the modules it imports reads the environment at import).
 *
 * The hook reads stdin and writes stdout with plain system calls, never through process.stdin/
 * stdout: creating those streams loads Node's stream, net and tty machinery for one small JSON
 * each way.
 */
export async function runHookCli(argv: readonly string[]): Promise<number> {
  // Before anything else runs, as in cli.ts: nothing may read a sealed value.
  sanitizeProcessEnvInPlace(process.env, process.platform)
  try {
    return await runHookCommand(argv, {
      stdout: (text) => writeAll(1, text),
      stderr: (text) => writeAll(2, text),
      stdin: readStdin(),
      env: process.env,
    })
  } catch (error) {
    // Only a usage error gets here (answerHook itself never throws); printed as the CLI prints it.
    if (!(error instanceof UsageError)) throw error
    writeAll(2, `${error.message}\n`)
    return EXIT_USAGE
  }
}

/** `ticket` and `exec`, as cli.ts runs them; null when this `exec` finds no hub (the full CLI runs it). */
export async function runHubClientCommand(
  name: 'ticket' | 'exec',
  argv: readonly string[],
): Promise<number | null> {
  sanitizeProcessEnvInPlace(process.env, process.platform)
  const { abortOnSignals } = await import('./cli/abort-on-signals')
  const command =
    name === 'ticket'
      ? (await import('./cli/commands/ticket')).ticketCommand
      : (await import('./cli/commands/exec')).makeExecCommand(() => Promise.reject(NO_HUB))
  const io = {
    stdout: (text: string) => void process.stdout.write(text),
    stdoutBytes: (bytes: Uint8Array) => void process.stdout.write(bytes),
    stderr: (text: string) => void process.stderr.write(text),
    stdin: null,
    env: process.env,
    cwd: process.cwd(),
    signal: abortOnSignals(),
  }
  if (argv[0] === '--help' || argv[0] === '-h') {
    io.stdout(`${command.usage}\n`)
    return 0
  }
  try {
    return await command.run([...argv], io)
  } catch (error) {
    if (error === NO_HUB) return null
    if (error instanceof UsageError) {
      io.stderr(`${error.message}\n`)
      return EXIT_USAGE
    }
    io.stderr(`shellgate ${name}: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
}

/** Thrown by this entry's exec when no hub runs: the whole Bash tool path is not in this bundle. */
const NO_HUB = Symbol('no hub: run by the full CLI')

/**
 * The hook's input as read so far, and the rest from process.stdin only if fd 0 turns out to be
 * non-blocking (a parent that set O_NONBLOCK); null when there is no input to read (a terminal,
 * /dev/null, or no fd 0). Past the limit it stops reading: what it has is enough for the hook to refuse it.
 */
function readStdin(): HookInput | null {
  // A terminal (or any character device) is no hook input; node:tty would answer the same at the
  // cost of loading it.
  try {
    if (fstatSync(0).isCharacterDevice()) return null
  } catch {
    return null
  }
  const chunks: Buffer[] = []
  let size = 0
  while (size <= HOOK_INPUT_MAX_BYTES) {
    const chunk = Buffer.allocUnsafe(STDIN_CHUNK_BYTES)
    let count: number
    try {
      count = readSync(0, chunk, 0, chunk.length, null)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EOF') break
      if (code === 'EAGAIN') return withRest(chunks, process.stdin)
      throw error
    }
    if (count === 0) break
    chunks.push(chunk.subarray(0, count))
    size += count
  }
  return chunks
}

const STDIN_CHUNK_BYTES = 64 * 1024

async function* withRest(
  head: Buffer[],
  rest: AsyncIterable<Buffer | string>,
): AsyncIterable<Buffer | string> {
  yield* head
  yield* rest
}

function writeAll(fd: number, text: string): void {
  let bytes = Buffer.from(text, 'utf8')
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(writeSync(fd, bytes))
    } catch (error) {
      // A full non-blocking pipe: wait for the reader rather than lose the decision.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1)
    }
  }
}
