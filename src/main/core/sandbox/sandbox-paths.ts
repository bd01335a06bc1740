import {
  closeSync,
  type Dirent,
  constants,
  existsSync,
  fchmodSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
} from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import type { SandboxSettings } from '../../../shared/settings'
import { isEnvFileName } from '../secrets/secret-file-names'
import { expandHome } from './sandbox-settings-check'
import type { ExposedPath, HiddenPath } from './types'

/** issue 12: the secrets every sandboxed command is denied, relative to the home directory. */
export const BUILT_IN_HIDDEN = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gh',
  '.netrc',
  '.docker/config.json',
  '.kube',
  '.npmrc',
]

/** issue 12: the npm, pnpm, yarn, pip, cargo and go caches, writable under workspace-write when they exist. */
export const DEFAULT_TOOL_CACHES = [
  '.npm',
  '.local/share/pnpm/store',
  '.pnpm-store',
  '.cache/yarn',
  '.yarn/berry/cache',
  '.cache/pip',
  '.cargo/registry',
  '.cargo/git',
  'go/pkg/mod',
  '.cache/go-build',
]

/**
 * Host Unix sockets outside /tmp (the private /tmp already covers the host's). A read-only bind does
 * not guard them, since connect() works on a read-only mount, and the network namespace cuts only
 * abstract sockets: Docker's and containerd's are root on the host, and the user's runtime folder
 * holds the ssh and gpg agents and the session bus.
 */
export function hostSocketPaths(uid: number | null): string[] {
  return [
    '/run/docker.sock',
    '/var/run/docker.sock',
    '/run/containerd',
    '/run/podman',
    '/run/user/podman',
    ...(uid === null ? [] : [`/run/user/${uid}`]),
  ]
}

/** How deep below the workspace `.env` files are looked for, and how many folders are read at most. */
const ENV_FILE_DEPTH = 2
const ENV_FILE_FOLDER_BUDGET = 200
/** Folders that hold other people's code or tools' output, never a project's own secrets. */
const NOT_PROJECT_FOLDERS = new Set(['node_modules', 'vendor', 'dist', 'build', 'out', 'target'])

/**
 * The workspace's own `.env` files (its root and two levels down, as in a monorepo), for the
 * read-only profile: a command that runs without asking, such as `grep -rn KEY .`, must not read
 * the project's secrets through a folder walk the verdict cannot see into. Approved commands keep
 * them (a person who allows `npm test` expects it to load `.env`). Dot folders and dependency
 * folders are not walked, and the walk stops after ENV_FILE_FOLDER_BUDGET folders.
 */
export function workspaceEnvFiles(workspace: string): HiddenPath[] {
  const found: HiddenPath[] = []
  const queue: { dir: string; depth: number }[] = [{ dir: workspace, depth: 0 }]
  let budget = ENV_FILE_FOLDER_BUDGET
  while (queue.length > 0 && budget > 0) {
    const { dir, depth } = queue.shift()!
    budget -= 1
    let entries: Dirent[]
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      continue
    }
    for (const entry of entries) {
      const path = join(dir, entry.name)
      if (entry.isFile() && isEnvFileName(entry.name)) found.push({ path, kind: 'file' })
      else if (entry.isSymbolicLink() && isEnvFileName(entry.name)) {
        // A link named .env is hidden where it points, like every other secret.
        const real = realOrNull(path)
        if (real && !isDir(real)) found.push({ path: real, kind: 'file' })
      } else if (
        entry.isDirectory() &&
        depth < ENV_FILE_DEPTH &&
        !entry.name.startsWith('.') &&
        !NOT_PROJECT_FOLDERS.has(entry.name)
      )
        queue.push({ dir: path, depth: depth + 1 })
    }
  }
  return found
}

/** Secrets that exist, each at its real path (a symlinked ~/.ssh is hidden where it really is), plus SHELLGATE_HOME. */
export function hiddenPaths(
  home: string,
  dataDir: string,
  settings: SandboxSettings,
  hostSockets: string[] = hostSocketPaths(process.getuid?.() ?? null),
): HiddenPath[] {
  const candidates = [
    ...BUILT_IN_HIDDEN.map((relative) => join(home, relative)),
    dataDir,
    ...hostSockets,
    ...settings.hiddenPaths.map((entry) => expandHome(entry, home)).filter((path) => path !== null),
  ]
  const seen = new Set<string>()
  const hidden: HiddenPath[] = []
  for (const candidate of candidates) {
    const real = realOrNull(candidate)
    if (real === null || seen.has(real)) continue
    seen.add(real)
    // A socket is covered like a file: an empty file mounted over it cannot be connected to.
    hidden.push({ path: real, kind: statSync(real).isDirectory() ? 'dir' : 'file' })
  }
  return hidden
}

export function toolCacheRoots(home: string, settings: SandboxSettings): string[] {
  const entries = settings.toolCaches ?? DEFAULT_TOOL_CACHES.map((relative) => join(home, relative))
  const roots = entries.map((entry) => expandHome(entry, home)).filter((path) => path !== null)
  return unique(roots.map(realOrNull).filter((path): path is string => path !== null && isDir(path)))
}

/**
 * Read-only even inside the writable workspace: what would run code later (hooks, config's
 * core.hooksPath / aliases) or change Shellgate's own rules. A `.git` file (worktree, submodule)
 * points at the real gitdir, whose hooks and config, and its common dir's, are protected too.
 */
export function protectedPaths(workspace: string): string[] {
  const paths = [join(workspace, '.shellgate')]
  // Only an existing path can be mounted over, so a missing hooks folder (git itself makes one) is
  // created empty: otherwise a sandboxed command could create it and plant a hook.
  const dotGit = join(workspace, '.git')
  if (isDir(dotGit) && !existsSync(join(dotGit, 'hooks'))) mkdirSync(join(dotGit, 'hooks'), { mode: 0o755 })
  for (const gitDir of gitDirs(workspace)) {
    // A symlink cannot be mounted over (bwrap follows it), and inside a writable .git the link
    // itself could be swapped for a real folder of hooks; so such a .git is read-only as a whole.
    if (isSymlink(join(gitDir, 'hooks')) || isSymlink(join(gitDir, 'config'))) paths.push(gitDir)
    else paths.push(join(gitDir, 'hooks'), join(gitDir, 'config'))
  }
  return unique(paths.map(realOrNull).filter((path): path is string => path !== null))
}

function gitDirs(workspace: string): string[] {
  const dotGit = join(workspace, '.git')
  let stats: ReturnType<typeof lstatSync>
  try {
    stats = lstatSync(dotGit)
  } catch {
    return []
  }
  if (stats.isDirectory()) return [dotGit]
  if (!stats.isFile()) return []
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8').slice(0, 4_096))
  if (!match) return []
  const gitDir = resolve(workspace, match[1]!)
  const dirs = [gitDir]
  const commonFile = join(gitDir, 'commondir')
  if (existsSync(commonFile)) {
    const common = readFileSync(commonFile, 'utf8').trim()
    dirs.push(isAbsolute(common) ? common : resolve(gitDir, common))
  }
  return dirs
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
 * The empty file bound (read-only) over hidden files; truncated again if anything ever wrote to it.
 * 0600, not 0400: we reopen it read-write on every run, which a non-root owner could not do at 0400.
 */
export function ensureEmptyFile(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const path = join(dir, 'empty')
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o600)
  try {
    if (fstatSync(fd).size > 0) ftruncateSync(fd, 0)
    fchmodSync(fd, 0o600)
  } finally {
    closeSync(fd)
  }
  return path
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path)
  } catch {
    return null
  }
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)]
}
