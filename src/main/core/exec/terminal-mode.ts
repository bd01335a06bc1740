import { execFile } from 'node:child_process'
import type { TerminalMode } from './terminal-types'

/** A mode read that has not answered by then is unknown, never a guess. */
export const TERMINAL_MODE_TIMEOUT_MS = 1_000

export type ExecFileFunction = (
  file: string,
  args: string[],
  options: { env: Record<string, string>; timeout: number },
  callback: (error: Error | null, stdout: string) => void,
) => void

const nodeExecFile: ExecFileFunction = (file, args, options, callback) => {
  execFile(file, args, options, (error, stdout) => callback(error, String(stdout)))
}

/**
 * The termios flags of a terminal, read by `stty -a` on the terminal's device (Node has no
 * tcgetattr). Linux names the device with -F, macOS with -f. Any failure reads as unknown (null).
 */
export function readTerminalMode(
  devicePath: string,
  platform: NodeJS.Platform,
  run: ExecFileFunction = nodeExecFile,
): Promise<TerminalMode | null> {
  if (platform === 'win32' || !devicePath.startsWith('/dev/')) return Promise.resolve(null)
  const deviceFlag = platform === 'darwin' ? '-f' : '-F'
  return new Promise((resolve) => {
    run(
      'stty',
      [deviceFlag, devicePath, '-a'],
      { env: { LC_ALL: 'C', PATH: '/bin:/usr/bin' }, timeout: TERMINAL_MODE_TIMEOUT_MS },
      (error, stdout) => resolve(error ? null : parseSttyFlags(stdout)),
    )
  })
}

/** `stty -a` lists flags as words, a cleared one with a leading "-": `icanon -echo`. */
export function parseSttyFlags(text: string): TerminalMode | null {
  const words = new Set(text.split(/[\s;]+/))
  const flag = (name: string) => (words.has(name) ? true : words.has(`-${name}`) ? false : null)
  const echo = flag('echo')
  const canonical = flag('icanon')
  if (echo === null || canonical === null) return null
  return { echo, canonical }
}
