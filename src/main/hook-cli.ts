import { fstatSync, readSync, writeSync } from 'node:fs'
import { sanitizeProcessEnvInPlace } from './core/env/sanitize-entry'
import { HOOK_INPUT_MAX_BYTES } from './mcp/hooks/hook-limits'
import type { HookInput } from './mcp/hooks/run-hook'

/**
 * `shellgate hook <client>` runs before every command an agent makes (issue 20.6), so it has its
 * own entry: bin/shellgate.js calls this instead of loading the CLI's command table, and the hook
 * reads stdin and writes stdout with plain system calls, never through process.stdin/stdout
 * (creating those streams loads Node's stream, net and tty machinery for one small JSON each way).
 * It answers exactly as `shellgate hook` run through the CLI does: same command, same checks.
 * Importing this module does nothing; only runHookCli does.
 */
export async function runHookCli(argv: readonly string[]): Promise<number> {
  // Before anything else is loaded, as in cli.ts: no module may read a sealed value at import.
  sanitizeProcessEnvInPlace(process.env, process.platform)
  const { runHookCommand } = await import('./cli/commands/hook')
  const { UsageError, EXIT_USAGE } = await import('./cli/usage-error')
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
