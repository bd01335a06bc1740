import { lstatSync, realpathSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'
import type { ReadConcern } from '../verdict'
import { HOME_SECRET_PATHS } from '../../secrets/home-secrets'
import { isEnvFileName, isSecretFileName } from '../../secrets/secret-file-names'
import { globMatches } from './glob-matches'

/** Where the command runs and what it may read without asking. */
export interface PlaceOptions {
  cwd: string
  /** The session's workspace; when absent, nothing counts as outside it. */
  workspace?: string
  /** Folders outside the workspace the user lets read-only commands read (Settings). */
  readableFolders?: readonly string[]
  /** The home directory `~` expands to; defaults to the process's. */
  home?: string
  /** SHELLGATE_HOME; defaults to $SHELLGATE_HOME or ~/.shellgate. */
  shellgateHome?: string
}

export interface PlaceJudgement {
  /** Set when a path makes the command not read-only at all (a process's environment). */
  refused: string | null
  concerns: ReadConcern[]
}

/** `.env`, `.env.local`, `.envrc`: re-exported for callers that judge env files alone. */
export { isEnvFileName }
// Reading these is reading nothing.
const HARMLESS = new Set(['/dev/null', '/dev/stdin', '/dev/zero', '-'])

/**
 * Class 6: judge the paths a read-only command reads. A process's environment (`/proc/<any>/environ`,
 * however spelled: symlinks are resolved by the kernel, so the check runs on the real path too) makes
 * it not read-only; a secrets location, or a place outside the workspace and the listed folders,
 * leaves it read-only but asks first, with the reason the approval card shows.
 */
export function judgeReadPaths(words: readonly string[], options: PlaceOptions): PlaceJudgement {
  const home = options.home ?? homedir()
  const secrets = secretRoots(home, options.shellgateHome)
  const allowed = allowedRoots(options)
  const concerns: ReadConcern[] = []
  const expanded: string[] = []
  for (const word of words) {
    // `cat -- *` reads whatever the glob picks, a planted `key -> ~/.ssh/id_rsa` included.
    const tilde = expandTilde(word, home)
    const matches = tilde === null ? [] : globMatches(tilde, options.cwd)
    if (matches === null) {
      const reason = `reads the files ${word} picks at run time, which may be outside the workspace`
      concerns.push({ kind: 'secret', path: word, reason })
    } else expanded.push(...matches)
  }
  for (const word of [...words, ...expanded]) {
    if (HARMLESS.has(word)) continue
    const expanded = expandTilde(word, home)
    if (expanded === null) {
      // ~user/.ssh/id_rsa is that user's key: the same secrets under another home.
      const rest = word.slice(word.indexOf('/') + 1)
      const secret = word.includes('/') && secretRelation(path.join(home, rest), secrets) !== null
      concerns.push(
        secret
          ? { kind: 'secret', path: word, reason: `reads a secrets location: ${word}` }
          : { kind: 'outside-workspace', path: word, reason: `reads outside the workspace: ${word}` },
      )
      continue
    }
    const lexical = path.resolve(options.cwd, expanded)
    // `link/../.ssh/id_rsa`: the kernel takes `..` from where the symlink leads, not from `link`'s
    // folder, so a path with `..` in it is resolved as written.
    const real = DOT_DOT.test(expanded)
      ? kernelPath(path.isAbsolute(expanded) ? expanded : `${options.cwd}/${expanded}`)
      : realPath(lexical)
    const shown = displayPath(real, home)
    for (const candidate of new Set([lexical, real])) {
      const environ = environProblem(candidate, word)
      if (environ) return { refused: environ, concerns }
    }
    // /proc/self/cwd/… and /dev/fd/N/… resolve in the process that opens them, whose folder and
    // descriptors are not this one's: where they lead is known only at run time.
    if (OTHER_PROCESS_VIEW.test(lexical) || OTHER_PROCESS_VIEW.test(expanded)) {
      const reason = `reads ${word}, which leads where the running command's folder or descriptors do`
      concerns.push({ kind: 'secret', path: word, reason })
      continue
    }
    const secret = [lexical, real].map((candidate) => secretRelation(candidate, secrets)).find(Boolean)
    if (secret) {
      const what = secret === 'holds' ? 'a folder that holds secrets' : 'a secrets location'
      concerns.push({ kind: 'secret', path: real, reason: `reads ${what}: ${shown}` })
      continue
    }
    if (allowed !== null && !allowed.some((root) => isInside(real, root))) {
      concerns.push({
        kind: 'outside-workspace',
        path: real,
        reason: `reads outside the workspace: ${shown}`,
      })
    }
  }
  return { refused: null, concerns }
}

// Roots are resolved once per home: resolving a dozen of them on every classify cost more than the parse.
const SECRET_ROOTS = new Map<string, string[]>()
const ALLOWED_ROOTS = new Map<string, string[]>()
const MAX_MEMO = 64

function memo<T>(map: Map<string, T>, key: string, make: () => T): T {
  const found = map.get(key)
  if (found !== undefined) return found
  const made = make()
  if (map.size >= MAX_MEMO) map.clear()
  map.set(key, made)
  return made
}

function secretRoots(home: string, shellgateHome: string | undefined): string[] {
  const configured = shellgateHome ?? process.env.SHELLGATE_HOME ?? ''
  return memo(SECRET_ROOTS, `${home}\0${configured}`, () => resolveSecretRoots(home, shellgateHome))
}

function resolveSecretRoots(home: string, shellgateHome: string | undefined): string[] {
  const roots = HOME_SECRET_PATHS.map((entry) => path.join(home, entry))
  roots.push(path.resolve(shellgateHome ?? process.env.SHELLGATE_HOME ?? path.join(home, '.shellgate')))
  return roots.flatMap((root) => {
    const real = realOrNull(root)
    return real && real !== root ? [root, real] : [root]
  })
}

function allowedRoots(options: PlaceOptions): string[] | null {
  const workspace = options.workspace
  if (workspace === undefined) return null
  const folders = options.readableFolders ?? []
  const key = [options.cwd, workspace, ...folders].join('\0')
  return memo(ALLOWED_ROOTS, key, () => resolveAllowedRoots({ ...options, workspace }))
}

function resolveAllowedRoots(options: PlaceOptions & { workspace: string }): string[] {
  return [options.workspace, ...(options.readableFolders ?? [])].map((root) => {
    const absolute = path.resolve(options.cwd, root)
    return realOrNull(absolute) ?? absolute
  })
}

/** `~` and `~/x` expand to the home directory; `~user` is someone else's, so null (unknown). */
function expandTilde(word: string, home: string): string | null {
  if (word === '~') return home
  if (word.startsWith('~/')) return path.join(home, word.slice(2))
  if (word.startsWith('~')) return null
  return word
}

/**
 * A secrets location itself, anything inside it, a secret-named file anywhere (`.env`, `*.pem`), or a folder that holds
 * one of them (`grep -r token ~` reads ~/.ssh too).
 */
function secretRelation(given: string, givenRoots: readonly string[]): 'is' | 'holds' | null {
  if (isSecretFileName(path.basename(given))) return 'is'
  // macOS and Windows file systems ignore case: ~/.SSH/id_rsa is ~/.ssh/id_rsa there.
  const candidate = given.toLowerCase()
  const roots = givenRoots.map((root) => root.toLowerCase())
  if (roots.some((root) => isInside(candidate, root))) return 'is'
  return roots.some((root) => isInside(root, candidate)) ? 'holds' : null
}

function environProblem(candidate: string, word: string): string | null {
  if (candidate !== '/proc' && !candidate.startsWith('/proc/')) return null
  if (path.basename(candidate) === 'environ') return `${word} is a process's environment, which holds secrets`
  if (isDirectory(candidate) || candidate === '/proc')
    return `${word} is a /proc folder, which holds every process's environment`
  return null
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false })?.isDirectory() ?? false
  } catch {
    return false
  }
}

// Real paths of folders, for a second: resolving every component of the cwd on each classify was
// most of its cost. A folder swapped for a symlink within that second is the same race as one
// swapped between classify and run, which no check before running can close.
const FOLDER_TTL_MS = 1_000
const realFolders = new Map<string, { real: string | null; at: number }>()

function realFolder(dir: string): string | null {
  const now = Date.now()
  const cached = realFolders.get(dir)
  if (cached && now - cached.at < FOLDER_TTL_MS) return cached.real
  const real = realOrNull(dir)
  if (realFolders.size >= 256) realFolders.clear()
  realFolders.set(dir, { real, at: now })
  return real
}

/** The real path: the folder's (cached), then the file itself only when it is a symlink. */
function realPath(file: string): string {
  const parent = path.dirname(file)
  const realParent = parent === file ? file : realFolder(parent)
  if (realParent === null) return realOrNearest(file)
  let stats: ReturnType<typeof lstatSync>
  try {
    stats = lstatSync(file, { throwIfNoEntry: false })
  } catch {
    return realOrNearest(file)
  }
  if (stats?.isSymbolicLink()) return realOrNull(file) ?? realOrNearest(file)
  return parent === file ? realParent : path.join(realParent, path.basename(file))
}

const OTHER_PROCESS_VIEW = /^\/(?:proc\/[^/]+\/(?:task\/[^/]+\/)?(?:cwd|fd|root)|dev\/fd)(?:\/|$)/
const DOT_DOT = /(?:^|\/)\.\.(?:\/|$)/

/**
 * The real path of `raw` as the kernel walks it, `..` after a symlink included; for a path that
 * does not exist, its nearest existing parent's (path.dirname keeps `..` as written).
 */
function kernelPath(raw: string): string {
  let rest: string[] = []
  for (let current = raw; ; current = path.dirname(current)) {
    const real = realOrNull(current)
    if (real !== null) return path.join(real, ...rest)
    if (path.dirname(current) === current) return path.resolve(raw)
    rest = [path.basename(current), ...rest]
  }
}

/** The real path, or for a path that does not exist the real path of its nearest existing parent. */
function realOrNearest(file: string): string {
  let rest = ''
  for (let current = file; ; current = path.dirname(current)) {
    const real = current === file ? realOrNull(current) : realFolder(current)
    if (real !== null) return rest ? path.join(real, rest) : real
    if (path.dirname(current) === current) return file
    rest = rest ? path.join(path.basename(current), rest) : path.basename(current)
  }
}

function realOrNull(file: string): string | null {
  try {
    return realpathSync.native(file)
  } catch {
    return null
  }
}

/** Both paths absolute and normalised (path.resolve, realpath), so a prefix test is exact. */
function isInside(file: string, dir: string): boolean {
  if (file === dir) return true
  return file.startsWith(dir.endsWith(path.sep) ? dir : `${dir}${path.sep}`)
}

function displayPath(file: string, home: string): string {
  if (file === home) return '~'
  return isInside(file, home) ? `~/${path.relative(home, file)}` : file
}
