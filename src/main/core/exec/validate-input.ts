import { existsSync, statSync } from 'node:fs'
import { ExecInputError } from './exec-input-error'
import type { ExecutionCommand } from './types'

/** Every check runs before any side effect: bad input never starts a process. */

export function assertCommand(command: ExecutionCommand): void {
  if (command === null || typeof command !== 'object') throw new ExecInputError('command must be an object')
  if (command.mode === 'argv') {
    assertFileAndArgs(command.file, command.args)
  } else if (command.mode === 'shell') {
    assertText('shell command', command.command)
    if (command.shell !== undefined) assertText('shell', command.shell)
    if (command.shellProfile !== undefined && command.shellProfile !== 'posix-bash') {
      throw new ExecInputError(
        `shellProfile must be "posix-bash", got ${JSON.stringify(command.shellProfile)}`,
      )
    }
  } else {
    throw new ExecInputError(
      `command.mode must be "argv" or "shell", got ${JSON.stringify((command as { mode: unknown }).mode)}`,
    )
  }
}

export function assertFileAndArgs(file: unknown, args: unknown): void {
  assertText('file', file)
  if (!Array.isArray(args)) throw new ExecInputError('args must be an array of strings')
  for (let index = 0; index < args.length; index++) {
    const arg: unknown = args[index]
    if (typeof arg !== 'string')
      throw new ExecInputError(`args[${index}] must be a string, got ${typeof arg}`)
    if (arg.includes('\0')) throw new ExecInputError(`args[${index}] contains a NUL byte`)
  }
}

export function assertCwd(cwd: unknown): void {
  assertText('cwd', cwd)
  // `dir/.` resolves only for a directory (ENOTDIR for a file): the check every run pays is one
  // access() that throws nothing and builds no Stats with its four Dates (issue 24.4). The stat
  // below only words the error. Windows drops a trailing `.`, so it always stats.
  if (process.platform !== 'win32' && existsSync(`${cwd as string}/.`)) return
  let isDirectory: boolean
  try {
    isDirectory = statSync(cwd as string).isDirectory()
  } catch {
    throw new ExecInputError(`cwd does not exist: ${cwd as string}`)
  }
  if (!isDirectory) throw new ExecInputError(`cwd is not a directory: ${cwd as string}`)
}

export function assertEnv(env: unknown): void {
  if (env === null || typeof env !== 'object' || Array.isArray(env)) {
    throw new ExecInputError('env must be an object of string values')
  }
  for (const key of Object.keys(env)) {
    const value = (env as Record<string, unknown>)[key]
    if (key === '' || key.includes('=') || key.includes('\0')) {
      throw new ExecInputError(`env key ${JSON.stringify(key)} is not a valid variable name`)
    }
    if (typeof value !== 'string')
      throw new ExecInputError(`env.${key} must be a string, got ${typeof value}`)
    if (value.includes('\0')) throw new ExecInputError(`env.${key} contains a NUL byte`)
  }
}

/** Whole, non-negative milliseconds or bytes; `name` is used in the message. */
export function assertNonNegativeInteger(name: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new ExecInputError(`${name} must be a whole number ≥ 0, got ${String(value)}`)
  }
}

/** Node timers overflow past this and then fire after 1 ms, so a longer timeout would end at once. */
export const MAX_TIMER_MS = 2_147_483_647

export function assertTimeoutMs(value: unknown): void {
  assertNonNegativeInteger('timeoutMs', value)
  if ((value as number) > MAX_TIMER_MS) {
    throw new ExecInputError(
      `timeoutMs must be at most ${MAX_TIMER_MS} (about 24.8 days), got ${String(value)}`,
    )
  }
}

export function assertSignal(signal: unknown): void {
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new ExecInputError('signal must be an AbortSignal')
  }
}

function assertText(name: string, value: unknown): void {
  if (typeof value !== 'string' || value === '')
    throw new ExecInputError(`${name} must be a non-empty string`)
  if (value.includes('\0')) throw new ExecInputError(`${name} contains a NUL byte`)
}
