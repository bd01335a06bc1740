import { realpathSync } from 'node:fs'
import { posix, win32 } from 'node:path'

/**
 * Where the next Bash call starts (seed 003, decideBashCwdPolicy). Only a successful command of the
 * main session moves the cwd; a cwd inside the workspace is kept, one outside it is reset to the
 * workspace with a note. Literal and real paths are both compared (a symlink into the workspace
 * counts as inside), with macOS's /private/tmp and /private/var folded onto /tmp and /var.
 */

export interface CwdPolicyInput {
  workspace: string
  /** The cwd this command started in. */
  currentCwd: string
  /** What the command left behind (`pwd -P` after success); null when it was not captured. */
  capturedCwd: string | null
  succeeded: boolean
  /** Sub-agents never move the session's cwd. */
  mainSession: boolean
  platform: NodeJS.Platform
  /** Defaults to fs.realpathSync.native; returns null when the path does not resolve. */
  realpath?: (path: string) => string | null
}

export interface CwdDecision {
  cwd: string
  reset: boolean
  /** `Shell cwd was reset to …`, appended to what the model sees; null when nothing was reset. */
  note: string | null
}

export function decideCwdPolicy(input: CwdPolicyInput): CwdDecision {
  const { workspace, capturedCwd } = input
  if (!input.succeeded || !input.mainSession || capturedCwd === null || capturedCwd === '') {
    return { cwd: input.currentCwd, reset: false, note: null }
  }
  const realpath = input.realpath ?? defaultRealpath
  const forms = (path: string) => {
    const real = realpath(path)
    return [path, ...(real === null ? [] : [real])].map((p) => normalise(p, input.platform))
  }
  const roots = forms(workspace)
  const inside = forms(capturedCwd).some((candidate) =>
    roots.some((root) => isInside(candidate, root, input.platform)),
  )
  if (inside) return { cwd: capturedCwd, reset: false, note: null }
  return { cwd: workspace, reset: true, note: `Shell cwd was reset to ${workspace}` }
}

function defaultRealpath(path: string): string | null {
  try {
    return realpathSync.native(path)
  } catch {
    return null
  }
}

function normalise(path: string, platform: NodeJS.Platform): string {
  if (platform === 'win32') return win32.normalize(path).toLowerCase()
  const normal = posix.normalize(path)
  if (platform === 'darwin') return normal.replace(/^\/private(?=\/(tmp|var)(\/|$))/, '')
  return normal
}

function isInside(path: string, root: string, platform: NodeJS.Platform): boolean {
  const relative = (platform === 'win32' ? win32 : posix).relative(root, path)
  return (
    relative === '' ||
    (!relative.startsWith('..') && !(platform === 'win32' ? win32 : posix).isAbsolute(relative))
  )
}
