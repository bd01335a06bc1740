/** Where a command writes; tests pass buffers, the binary passes the process streams. */
export interface CliIo {
  stdout: (text: string) => void
  /** Raw bytes to stdout (a command's output passed through); absent in tests, which get text. */
  stdoutBytes?: (bytes: Uint8Array) => void
  stderr: (text: string) => void
  /** Null when stdin is not readable for this invocation. */
  stdin: NodeJS.ReadableStream | null
  /** The terminal when stdin is one (for key presses, e.g. `serve`'s u); absent in tests. */
  terminal?: NodeJS.ReadStream | null
  env: NodeJS.ProcessEnv
  cwd: string
  /** Aborted on SIGINT/SIGTERM so a command can cancel what it started before the CLI exits. */
  signal: AbortSignal
}

export interface CliCommand {
  /** The usage line(s) shown by `shellgate <command> --help`. */
  usage: string
  /** Resolves to the process exit code. Throws UsageError for bad input. */
  run(argv: string[], io: CliIo): Promise<number>
}
