import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { UsageError } from './usage-error'

/** The command: one argument, or the words after `--` joined by spaces. */
export function commandArgument(name: string, positionals: string[], rest: string[] | null): string {
  if (rest !== null && positionals.length > 0) {
    throw new UsageError(`shellgate ${name}: give the command either as one argument or after --, not both`)
  }
  if (rest !== null) {
    if (rest.length === 0) throw new UsageError(`shellgate ${name}: missing <command> after --`)
    return rest.join(' ')
  }
  if (positionals.length === 0) throw new UsageError(`shellgate ${name}: missing <command>`)
  if (positionals.length > 1) {
    throw new UsageError(`shellgate ${name}: quote the command as one argument, or put its words after --`)
  }
  return positionals[0] as string
}

/** --cwd DIR (default: the current directory), which must be an existing directory. */
export function resolveCwdFlag(name: string, value: unknown, base: string): string {
  const dir = resolve(base, typeof value === 'string' ? value : '.')
  let isDirectory = false
  try {
    isDirectory = statSync(dir).isDirectory()
  } catch {
    throw new UsageError(`shellgate ${name}: --cwd ${dir} does not exist`)
  }
  if (!isDirectory) throw new UsageError(`shellgate ${name}: --cwd ${dir} is not a directory`)
  return dir
}
