/** Types the resource probe's facade and its platform files share, so neither imports the other. */

/** Runs a tool and resolves to its stdout; injectable so the win32 and macOS paths are testable. */
export type ProbeCommandRunner = (file: string, args: string[], timeoutMs: number) => Promise<string>
