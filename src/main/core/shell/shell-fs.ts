import { accessSync, constants, statSync } from 'node:fs'
import type { ShellFs } from './types'

/** The real file system: a regular file this process may execute. */
export const nodeShellFs: ShellFs = {
  isExecutable(path) {
    try {
      accessSync(path, constants.X_OK)
      return statSync(path).isFile()
    } catch {
      return false
    }
  },
}
