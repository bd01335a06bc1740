import { runCli } from '../../../src/main/cli/main'

export interface CliOutcome {
  code: number
  stdout: string
  stderr: string
}

/** Runs the CLI in-process with string buffers, as the binary would with real streams. */
export async function runCliCaptured(
  argv: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; signal?: AbortSignal } = {},
): Promise<CliOutcome> {
  let stdout = ''
  let stderr = ''
  const code = await runCli(argv, {
    stdout: (text) => {
      stdout += text
    },
    stderr: (text) => {
      stderr += text
    },
    stdin: null,
    env: options.env ?? { PATH: process.env.PATH ?? '' },
    cwd: options.cwd ?? process.cwd(),
    signal: options.signal ?? new AbortController().signal,
  })
  return { code, stdout, stderr }
}
