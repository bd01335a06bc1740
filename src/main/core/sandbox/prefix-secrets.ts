import { type Dirent, lstatSync, readdirSync, type Stats } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { isSecretFileName } from '../secrets/secret-file-names'
import { configHoldsCredential, gitConfigFacts } from './config-credentials'
import { readText } from './host-paths'
import type { LayoutEntry } from './layout-types'

/**
 * The toolchains on PATH are mounted whole (`~/.nvm`, `~/.npm-global`, `<prefix>` for a
 * `<prefix>/bin`), and so are `/opt` and `/usr/local`. Installed trees hold the person's settings
 * too, and some carry a credential: npm's global config is `<prefix>/etc/npmrc` (an nvm node's,
 * `/usr/local/etc/npmrc`), pip's and git's live in `<prefix>/etc` the same way, and a key or an
 * `.env` may sit anywhere a person unpacked a tool (a red-team finding: a read-only command
 * printed an nvm node's `_authToken`). So each such root is walked for the secrets room's file
 * names, and each `etc/` config file that names a credential reads as empty.
 *
 * The walk is shallow and skips what installs are made of (packages, libraries, headers, manuals):
 * the person's own files in a tool's tree sit near its top. Its bounds are said, never silent: a
 * root past them still has its prefixes' `etc/` (`/opt/<tool>/etc`) looked at, is mounted as it is
 * (nothing sandboxed writes it), and explain says so. Each walk is kept while its folders are unchanged.
 */
const MAX_DEPTH = 5
const MAX_FOLDERS = 80
const SKIPPED = new Set([
  'node_modules',
  'site-packages',
  'dist-packages',
  'lib',
  'lib64',
  'libexec',
  'include',
  'share',
  'man',
  'doc',
  'docs',
  'src',
  'pkg',
  'test',
  'tests',
  '.git',
  'cache',
  '.cache',
])
/** Config files a tool reads from its prefix's etc/ that may hold a token or a password. */
const PREFIX_CONFIG: Record<string, 'git' | 'ini'> = {
  npmrc: 'ini',
  'pip.conf': 'ini',
  gitconfig: 'git',
  wgetrc: 'ini',
  yarnrc: 'ini',
}
/** Folders those live in: `<prefix>/etc`, and pip's `<prefix>/etc/pip` or XDG `pip/`. */
const CONFIG_FOLDERS = new Set(['etc', 'pip'])
/** And from the prefix itself: a virtualenv's pip.conf (sys.prefix), conda's .condarc. */
const PREFIX_ROOT_CONFIG: Record<string, 'git' | 'ini'> = {
  'pip.conf': 'ini',
  '.condarc': 'ini',
  '.npmrc': 'ini',
}

export interface PrefixSecrets {
  hidden: LayoutEntry[]
  /** Roots whose walk stopped at its bounds (folders not looked at), for `sandbox explain`. */
  unchecked: LayoutEntry[]
}

/**
 * `walked`: the toolchain roots, walked as above. `prefixes`: `/usr/local` and `/opt`, whose
 * trees are the system's and too large to walk on every command: only their own `etc/`, each
 * tool's top folder and its `etc/` (`/opt/<tool>/etc`) are looked at.
 */
export function prefixSecrets(walked: readonly string[], prefixes: readonly string[]): PrefixSecrets {
  const found: PrefixSecrets = { hidden: [], unchecked: [] }
  for (const root of new Set(walked)) {
    const walk = walkedOnce(root)
    found.hidden.push(...walk.hidden)
    found.unchecked.push(...walk.unchecked)
  }
  for (const root of new Set(prefixes)) {
    const checked = keptOr(`prefix\0${root}`, (into) => {
      const listed: string[] = [root]
      judgePrefixConfigs(root, into, listed)
      return listed
    })
    found.hidden.push(...checked.hidden)
  }
  return found
}

/** The `etc/` of a prefix and of each prefix one level below it. */
function judgePrefixConfigs(root: string, found: PrefixSecrets, listed: string[]): void {
  const tools = listing(root).filter((entry) => entry.isDirectory() && !SKIPPED.has(entry.name))
  for (const prefix of [root, ...tools.map((entry) => join(root, entry.name))]) {
    // Its own top (a virtualenv's pip.conf, a .env or key left there), then its etc/.
    if (prefix !== root && !listed.includes(prefix)) judgeFolder(prefix, found, listed, [])
    const etc = join(prefix, 'etc')
    if (!listed.includes(etc) && lstatSync(etc, { throwIfNoEntry: false })?.isDirectory())
      judgeFolder(etc, found, listed, [])
  }
}

// A root's walk, kept while every folder it listed is the same one with the same times (an entry
// added, removed or renamed changes its folder's ctime, which no program can set back): a repeated
// prepare then costs one lstat per folder. Not kept when a folder changed in the last 2 s, when
// another change could carry the same ctime.
const kept = new Map<string, { stamps: Array<[string, string]>; found: PrefixSecrets }>()
const MAX_KEPT = 64
const RECENT_MS = 2_000

function walkedOnce(root: string): PrefixSecrets {
  return keptOr(root, (found) => walk(root, found))
}

/** `look` fills `found` and returns every folder and file it read, whose times keep the answer. */
function keptOr(key: string, look: (found: PrefixSecrets) => string[]): PrefixSecrets {
  const known = kept.get(key)
  if (known?.stamps.every(([folder, stamp]) => stampOf(folder) === stamp)) return known.found
  const found: PrefixSecrets = { hidden: [], unchecked: [] }
  const listed = look(found)
  const now = Date.now()
  let recent = false
  const stamps = listed.map((folder): [string, string] => {
    const stats = lstatSync(folder, { throwIfNoEntry: false })
    if (now - (stats?.ctimeMs ?? 0) <= RECENT_MS) recent = true
    return [folder, stampFrom(stats)]
  })
  if (kept.size >= MAX_KEPT) kept.clear()
  if (!recent) kept.set(key, { stamps, found })
  else kept.delete(key)
  return found
}

function stampOf(folder: string): string {
  return stampFrom(lstatSync(folder, { throwIfNoEntry: false }))
}

function stampFrom(stats: Stats | undefined): string {
  return stats ? `${stats.dev}:${stats.ino}:${stats.mtimeMs}:${stats.ctimeMs}` : 'missing'
}

/** Walks one root; returns every folder it listed and every config file it read. */
function walk(root: string, found: PrefixSecrets): string[] {
  const listed: string[] = []
  let level = [root]
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth += 1) {
    const next: string[] = []
    for (const folder of level) {
      if (listed.length >= MAX_FOLDERS) {
        found.unchecked.push({
          path: root,
          kind: 'dir',
          why: `toolchain or system folder: past ${MAX_FOLDERS} folders, only its prefixes' etc/ config files were looked at for credentials; the rest is mounted read-only as it is`,
        })
        judgePrefixConfigs(root, found, listed)
        return listed
      }
      judgeFolder(folder, found, listed, next)
    }
    level = next
  }
  return listed
}

/** Hides the secret files of one folder and the etc/ config files holding a credential; queues its folders. */
function judgeFolder(folder: string, found: PrefixSecrets, listed: string[], next: string[]): void {
  listed.push(folder)
  for (const entry of listing(folder)) {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name)) next.push(path)
      continue
    }
    if (!entry.isFile() && !entry.isSymbolicLink()) continue
    if (isSecretFileName(entry.name)) {
      found.hidden.push({ path, kind: 'file', why: 'a secret file name in a toolchain or system folder' })
      continue
    }
    const format = CONFIG_FOLDERS.has(basename(folder))
      ? PREFIX_CONFIG[entry.name]
      : PREFIX_ROOT_CONFIG[entry.name]
    if (format === undefined) continue
    // Its own time is kept with the walk: a config rewritten in place leaves its folder as it was.
    listed.push(path)
    const key = configHoldsCredential(readText(path), format)
    if (format === 'git') found.hidden.push(...includedCredentials(path))
    if (key) found.hidden.push({ path, kind: 'file', readsEmpty: true, why: `holds a credential (${key})` })
  }
}

/** The files a git config includes (beside it, or by an absolute path) that hold a credential themselves. */
function includedCredentials(path: string): LayoutEntry[] {
  return gitConfigFacts(readText(path))
    .includes.filter((included) => !included.startsWith('~'))
    .map((included) => resolve(dirname(path), included))
    .flatMap((included) => {
      const key = configHoldsCredential(readText(included), 'git')
      const why = `holds a credential (${key}), included by ${path}`
      return key ? [{ path: included, kind: 'file' as const, readsEmpty: true, why }] : []
    })
}

function listing(folder: string): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
  } catch {
    return []
  }
}
