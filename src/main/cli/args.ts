import { parseArgs } from 'node:util'
import { UsageError } from './usage-error'

export type FlagSpec = Record<string, { type: 'boolean' | 'string'; multiple?: boolean; short?: string }>

export interface ParsedArgs {
  flags: Record<string, string | boolean | string[] | undefined>
  /** Positionals before `--`. */
  positionals: string[]
  /** Everything after the first `--`, untouched; null when there was no `--`. */
  rest: string[] | null
}

/** util.parseArgs in strict mode, with its errors turned into one-line usage errors. */
export function parseCommandArgs(command: string, argv: string[], spec: FlagSpec): ParsedArgs {
  const dashDash = argv.indexOf('--')
  const before = dashDash === -1 ? argv : argv.slice(0, dashDash)
  const rest = dashDash === -1 ? null : argv.slice(dashDash + 1)
  try {
    const { values, positionals } = parseArgs({
      args: before,
      options: spec,
      strict: true,
      allowPositionals: true,
    })
    return { flags: values as ParsedArgs['flags'], positionals, rest }
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error)
    // `--timeout -1`: parseArgs calls a value that starts with a dash "ambiguous"; say what is wrong with it.
    const dashed = /^Option '(--[\w-]+)[^']*' argument is ambiguous/.exec(message ?? '')
    if (dashed) {
      const value = before[before.indexOf(dashed[1] ?? '') + 1] ?? ''
      throw new UsageError(
        `shellgate ${command}: ${dashed[1]} does not take "${value}" (a value cannot start with "-")`,
      )
    }
    throw new UsageError(`shellgate ${command}: ${message?.replace(/\. To specify a positional.*$/, '')}`)
  }
}

export function integerFlag(command: string, name: string, value: unknown, min = 0): number | undefined {
  if (value === undefined) return undefined
  if (
    typeof value !== 'string' ||
    !/^\d+$/.test(value) ||
    Number(value) < min ||
    !Number.isSafeInteger(Number(value))
  ) {
    throw new UsageError(
      `shellgate ${command}: --${name} must be a whole number ≥ ${min}, got "${String(value)}"`,
    )
  }
  return Number(value)
}
