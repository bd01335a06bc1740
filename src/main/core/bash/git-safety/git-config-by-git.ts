import { spawnSync } from 'node:child_process'
import { statSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'
import { readRegularFile } from './bounded-read'
import type { GitConfigEntry } from './git-config-file'
import { readOncePerCall } from './per-call-reads'

/**
 * Class 5: git's own reading of a repository's config. Our text parser disagreed with git on
 * comments ending in `\`, `gitdir:` values with spaces, `..` after a symlinked folder and include
 * paths, so we ask git: `git config --list --show-origin --includes -z` reads config and never runs
 * a program. It runs with an environment of our own (no inherited GIT_*), the system and global
 * files switched off (the user's own files are theirs; a repository's are not), and HOME kept so
 * `~/` in an include resolves as it will for the user's git. Answers are cached by the identity
 * (inode, size, mtime) of every file that took part, including includes that do not exist yet.
 */

export interface RepositoryConfig {
  entries: Array<GitConfigEntry & { origin: string }>
  /** extensions.partialClone or a promisor remote: reading a missing object fetches it. */
  promisor: boolean
}

export type RepositoryConfigAnswer = { ok: true; config: RepositoryConfig } | { ok: false; problem: string }

const GIT_CANDIDATES = ['/usr/bin/git', '/usr/local/bin/git', '/opt/homebrew/bin/git', '/bin/git']
const MAX_OUTPUT_BYTES = 4 * 1024 * 1024
const TIMEOUT_MS = 3_000
const MAX_CACHED = 256
const MAX_CONFIG_BYTES = 1024 * 1024
const MAX_INCLUDE_DEPTH = 10
const MAX_INCLUDED_FILES = 64

interface Cached {
  stamps: Array<[file: string, stamp: string]>
  answer: RepositoryConfigAnswer
}

const cache = new Map<string, Cached>()

/** Which git binary we trust: a system one, never one a workspace could put first on PATH. */
export function findSystemGit(): string | null {
  for (const candidate of GIT_CANDIDATES) {
    if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate
  }
  return null
}

export function readRepositoryConfig(gitDir: string, commonDir: string | null): RepositoryConfigAnswer {
  const key = `${gitDir}\0${commonDir ?? ''}`
  return readOncePerCall(`config\0${key}`, () => readValidatedConfig(gitDir, commonDir, key))
}

function readValidatedConfig(gitDir: string, commonDir: string | null, key: string): RepositoryConfigAnswer {
  const cached = cache.get(key)
  if (cached?.stamps.every(([file, stamp]) => stampOf(file) === stamp)) return cached.answer
  const baseFiles = [
    path.join(gitDir, 'config'),
    path.join(gitDir, 'config.worktree'),
    path.join(gitDir, 'HEAD'),
  ]
  if (commonDir) baseFiles.push(path.join(commonDir, 'config'), path.join(commonDir, 'config.worktree'))
  // Stamp before asking: a file that changes while git reads it makes the next call ask again.
  const before = baseFiles.map((file): [string, string] => [file, stampOf(file)])
  const problem = checkFilesGitWillOpen(baseFiles)
  const answer: RepositoryConfigAnswer = problem ? { ok: false, problem } : askGit(gitDir, ['--includes'])
  const stamps = new Map(before)
  if (answer.ok)
    for (const file of filesInvolved(answer.config)) if (!stamps.has(file)) stamps.set(file, stampOf(file))
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string)
  cache.set(key, { stamps: [...stamps], answer })
  return answer
}

/**
 * git opens config files and includes with a plain blocking read, so a FIFO would stall it and
 * /dev/zero feed it forever. Before git reads with includes, every file it would open is opened
 * by us non-blocking, checked to be a regular file and capped; the include paths come from git
 * itself reading each file without following includes, resolved as git resolves them (relative
 * to the including file's folder, with `..` left to the kernel, `~/` in the home directory).
 */
function checkFilesGitWillOpen(baseFiles: readonly string[]): string | null {
  // git reads the repository config (includes followed) while it sets the repository up, even for
  // `config --no-includes`, so the walk reads each file on its own with --file, outside any repository.
  const pending = baseFiles.filter((file) => !file.endsWith('/HEAD')).map((file) => ({ file, depth: 0 }))
  const seen = new Set<string>()
  const queue = (config: RepositoryConfig, depth: number) => {
    for (const target of includeTargets(config)) pending.push({ file: target, depth })
  }
  while (pending.length > 0) {
    const { file, depth } = pending.shift() as { file: string; depth: number }
    if (seen.has(file)) continue
    seen.add(file)
    if (depth > MAX_INCLUDE_DEPTH || seen.size > MAX_INCLUDED_FILES)
      return `the repository config includes more than ${MAX_INCLUDED_FILES} files or nests deeper than ${MAX_INCLUDE_DEPTH}`
    const problem = checkRegular(file)
    if (problem) return problem
    if (!statSync(file, { throwIfNoEntry: false })) continue
    const nested = askGit(null, ['--no-includes'], file)
    if (!nested.ok) return nested.problem
    queue(nested.config, depth + 1)
  }
  return null
}

function checkRegular(file: string): string | null {
  try {
    readRegularFile(file, { maxBytes: MAX_CONFIG_BYTES, followSymlinks: true })
    return null
  } catch (error) {
    return (error as Error).message
  }
}

function askGit(gitDir: string | null, includes: string[], file?: string): RepositoryConfigAnswer {
  const git = findSystemGit()
  if (git === null)
    return { ok: false, problem: 'git is not installed in a system folder, so its config cannot be read' }
  const source = file === undefined ? [] : ['--file', file]
  const repository = gitDir === null ? [] : [`--git-dir=${gitDir}`]
  const args = [...repository, 'config', ...source, '--list', '--show-origin', ...includes, '-z']
  const run = runGitToJudge(git, args, { timeoutMs: TIMEOUT_MS, maxOutputBytes: MAX_OUTPUT_BYTES })
  if (run.error)
    return { ok: false, problem: `git could not read the repository config: ${run.error.message}` }
  if (run.status !== 0) {
    const message = run.stderr.toString('utf8').trim().split('\n')[0] ?? ''
    return { ok: false, problem: `git refuses the repository config: ${message || `exit ${run.status}`}` }
  }
  return parseListing(run.stdout.toString('utf8'))
}

/** `file:<origin>\0<key>\n<value>\0` per entry; a bare key (git's true) has no newline. */
export function parseListing(output: string): RepositoryConfigAnswer {
  const fields = output.split('\0')
  const entries: RepositoryConfig['entries'] = []
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const origin = fields[index] as string
    const item = fields[index + 1] as string
    const newline = item.indexOf('\n')
    const name = newline === -1 ? item : item.slice(0, newline)
    const value = newline === -1 ? null : item.slice(newline + 1)
    const first = name.indexOf('.')
    const last = name.lastIndexOf('.')
    if (first <= 0 || last === name.length - 1)
      return { ok: false, problem: `git listed a config name we cannot read: ${JSON.stringify(name)}` }
    entries.push({
      origin: origin.startsWith('file:') ? origin.slice(5) : origin,
      section: name.slice(0, first).toLowerCase(),
      subsection: first === last ? null : name.slice(first + 1, last),
      key: name.slice(last + 1).toLowerCase(),
      value,
    })
  }
  return { ok: true, config: { entries, promisor: isPromisor(entries) } }
}

function isPromisor(entries: RepositoryConfig['entries']): boolean {
  return entries.some((entry) => {
    if (entry.section === 'extensions' && entry.subsection === null && entry.key === 'partialclone')
      return true
    if (entry.section !== 'remote' || entry.subsection === null) return false
    if (entry.key === 'partialclonefilter') return true
    return (
      entry.key === 'promisor' && !['false', 'no', 'off', '0'].includes((entry.value ?? 'true').toLowerCase())
    )
  })
}

/** Every file that contributed, and every include target named (so creating one is noticed). */
function filesInvolved(config: RepositoryConfig): string[] {
  const files = new Set<string>(includeTargets(config))
  for (const entry of config.entries) if (path.isAbsolute(entry.origin)) files.add(entry.origin)
  return [...files]
}

/** Include paths as git resolves them; string concatenation keeps `..` for the kernel to resolve. */
function includeTargets(config: RepositoryConfig): string[] {
  const targets: string[] = []
  for (const entry of config.entries) {
    if (!(entry.section === 'include' || entry.section === 'includeif') || entry.key !== 'path') continue
    const value = entry.value
    if (!value) continue
    if (value.startsWith('~/')) targets.push(`${homedir()}/${value.slice(2)}`)
    else if (value.startsWith('/')) targets.push(value)
    else if (!value.startsWith('~') && !value.startsWith('%(') && path.isAbsolute(entry.origin))
      targets.push(`${path.dirname(entry.origin)}/${value}`)
  }
  return targets
}

// Times as float milliseconds (a fraction of a microsecond apart at today's dates, finer than any
// file system's clock): a bigint stat allocated a BigInt per field on every classify.
function stampOf(file: string): string {
  try {
    const stats = statSync(file, { throwIfNoEntry: false })
    return stats ? `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}` : 'missing'
  } catch {
    return 'unreadable'
  }
}

/**
 * git run while a command is judged: the system git with no system or global config, a bare env,
 * stdin closed, bounded in time and output. Without --git-dir, git must find no repository around
 * its cwd: / with a ceiling at /.
 */
export function runGitToJudge(
  git: string,
  args: readonly string[],
  limits: { timeoutMs: number; maxOutputBytes: number },
) {
  return spawnSync(git, args, {
    cwd: '/',
    env: {
      PATH: '/usr/bin:/bin',
      HOME: homedir(),
      LC_ALL: 'C',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CEILING_DIRECTORIES: '/',
    },
    encoding: 'buffer',
    timeout: limits.timeoutMs,
    maxBuffer: limits.maxOutputBytes,
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  })
}
