import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  statSync,
  unlinkSync,
} from 'node:fs'
import { join } from 'node:path'
import { realOrNull } from './host-paths'
import type { ExposedPath } from './types'

/**
 * Read-only even inside the writable workspace: Shellgate's own rules for it. (The git dirs are
 * sealed by git-seal.ts.) Only an existing folder is protected: workspace rules need the
 * person's trust before they apply (workspace-trust.ts), so a planted one changes nothing alone.
 */
export function protectedShellgatePaths(workspace: string): string[] {
  const path = realOrNull(join(workspace, '.shellgate'))
  return path && isDir(path) ? [path] : []
}

/**
 * The executor's own files the command must reach through a hidden SHELLGATE_HOME. A file that
 * must be bind-mounted has to exist, so a missing writable one (the cwd capture file) is created
 * empty, 0600: an empty capture reads as "no cwd", exactly like a missing one.
 */
export function exposedFiles(readable: (string | null)[], writable: (string | null)[]): ExposedPath[] {
  const exposed: ExposedPath[] = []
  for (const path of writable) {
    if (path === null) continue
    if (!existsSync(path)) closeSync(openSync(path, 'wx', 0o600))
    exposed.push({ path: realpathSync(path), writable: true })
  }
  for (const path of readable) {
    if (path !== null && existsSync(path)) exposed.push({ path: realpathSync(path), writable: false })
  }
  return exposed
}

/**
 * The files bound (read-only) over hidden files. `unreadable`: empty and mode 000, so opening a
 * hidden secret fails with "Permission denied" (every capability is dropped, so root cannot
 * override it) instead of reading as empty; the command's error names the path, and the result
 * says it was hidden. `blank`: empty and readable, for config files hidden for a credential in
 * them, which tools must still be able to open. Each is made again whenever it is not exactly
 * that (someone wrote to it or changed its mode).
 */
export function ensureHiddenFiles(dir: string): { unreadable: string; blank: string } {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  return {
    unreadable: ensureEmpty(join(dir, 'hidden-file'), 0),
    blank: ensureEmpty(join(dir, 'blank-file'), 0o444),
  }
}

function ensureEmpty(path: string, mode: number): string {
  const stats = lstatSync(path, { throwIfNoEntry: false })
  if (stats?.isFile() && stats.size === 0 && (stats.mode & 0o7777) === mode) return path
  if (stats) unlinkSync(path)
  closeSync(
    openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode),
  )
  // The umask can only take bits away, and an ACL default could add some: set it exactly.
  chmodSync(path, mode)
  return path
}

function isDir(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true
  } catch {
    return false
  }
}

function _unique(paths: string[]): string[] {
  return [...new Set(paths)]
}
