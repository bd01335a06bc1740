/**
 * A run on a pseudo-terminal (issue 23.1): the command's stdin, stdout and stderr are one terminal
 * whose output still goes to the run's output file; whoever holds the handle can type into it.
 */

/** seed-less defaults: wide enough that a model reading the text sees few wrapped lines. */
export const DEFAULT_TERMINAL_COLS = 120
export const DEFAULT_TERMINAL_ROWS = 40
/** A size outside this is a mistake, not a terminal (xterm.js itself stops far below it). */
export const MAX_TERMINAL_CELLS = 1_000

export interface TerminalOptions {
  cols: number
  rows: number
}

/** What the terminal's line discipline is doing now (termios), read at the moment of asking. */
export interface TerminalMode {
  /** ECHO: the kernel echoes what is typed. */
  echo: boolean
  /** ICANON: input is edited and delivered a line at a time by the kernel. */
  canonical: boolean
}

/** The running terminal: input, size, and the raw output as it arrives (it is also in the file). */
export interface TerminalHandle {
  /** Types into the terminal, as a keyboard would (bytes go to the line discipline). */
  write(data: string | Buffer): void
  resize(cols: number, rows: number): void
  readonly size: TerminalOptions
  /** null when the mode cannot be read (the terminal is gone, or no stty answered). */
  mode(): Promise<TerminalMode | null>
  /** The name of the terminal's foreground process, when the platform can tell. */
  foregroundProcess(): string | null
  /** Raw output chunks after they were written to the output file; returns the unsubscribe. */
  onData(listener: (chunk: Buffer) => void): () => void
  /** Called once when the terminal closed (the process is gone or let go of it). */
  onClose(listener: () => void): () => void
  readonly closed: boolean
}

/**
 * Input that must never be logged or shown: the program turned echo off but still reads whole
 * lines, as `read -s`, getpass, sudo and ssh do. Raw-mode programs (readline, a REPL, an editor)
 * turn echo off too, but echo for themselves, so they are not secret.
 */
export function isSecretMode(mode: TerminalMode | null): boolean {
  return mode !== null && !mode.echo && mode.canonical
}
