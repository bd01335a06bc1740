/**
 * Removes terminal escape sequences from text a model will read: colours and cursor moves are
 * noise to it and cost tokens. CSI, OSC (terminated by BEL or ST), and two-byte ESC sequences.
 */
const ANSI =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u009b[0-?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/g

export function stripAnsi(text: string): string {
  return text.includes('\u001b') || text.includes('\u009b') ? text.replace(ANSI, '') : text
}
