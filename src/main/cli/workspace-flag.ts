import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { UsageError } from './usage-error'

/** --workspace DIR (default: the current directory), which must be an existing directory. */
export function resolveWorkspaceFlag(command: string, value: unknown, cwd: string): string {
  const workspace = resolve(cwd, typeof value === 'string' ? value : '.')
  let isDirectory = false
  try {
    isDirectory = statSync(workspace).isDirectory()
  } catch {
    throw new UsageError(`shellgate ${command}: workspace ${workspace} does not exist`)
  }
  if (!isDirectory) throw new UsageError(`shellgate ${command}: workspace ${workspace} is not a directory`)
  return workspace
}
