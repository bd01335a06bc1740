import { realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'
import { isEnvFileName } from '../../secrets/secret-file-names'
import type { ReadConcern } from '../verdict'
import { createFsLookups, type FsLookups } from './fs-lookups'
import { hardLinkReason } from './hard-links'
import { isInside, kernelPath, realPath } from './real-paths'
import { secretRelation, secretRoots } from './secret-roots'

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
  /** The call's file system answers, shared by every check of one classify call. */
  lookups?: FsLookups
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
export function judgeReadPaths(
  words: readonly string[],
  options: PlaceOptions,
  // Given apart: copying the call's options for each folder a part may run in was a hot spot.
  cwd: string = options.cwd,
): PlaceJudgement {
  const home = options.home ?? homedir()
  const secrets = secretRoots(home, options.shellgateHome)
  const allowed = allowedRoots(options, cwd)
  const lookups = options.lookups ?? createFsLookups()
  const concerns: ReadConcern[] = []
  for (const word of words) {
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
    const lexical = path.resolve(cwd, expanded)
    // `link/../.ssh/id_rsa`: the kernel takes `..` from where the symlink leads, not from `link`'s
    // folder, so a path with `..` in it is resolved as written.
    const real = DOT_DOT.test(expanded)
      ? kernelPath(path.isAbsolute(expanded) ? expanded : `${cwd}/${expanded}`, lookups)
      : realPath(lexical, lookups)
    const shown = displayPath(real, home)
    for (const candidate of new Set([lexical, real])) {
      const environ = environProblem(candidate, word, lookups)
      if (environ) return { refused: environ, concerns }
    }
    // /proc/self/cwd/… and /dev/fd/N/… resolve in the process that opens them, whose folder and
    // descriptors are not this one's: where they lead is known only at run time.
    if (OTHER_PROCESS_VIEW.test(lexical) || OTHER_PROCESS_VIEW.test(expanded)) {
      const reason = `reads ${word}, which leads where the running command's folder or descriptors do`
      concerns.push({ kind: 'secret', path: word, reason })
      continue
    }
    // Usually the same path: judged once then.
    const secret =
      secretRelation(lexical, secrets) ?? (real === lexical ? null : secretRelation(real, secrets))
    if (secret) {
      const what = secret === 'holds' ? 'a folder that holds secrets' : 'a secrets location'
      concerns.push({ kind: 'secret', path: real, reason: `reads ${what}: ${shown}` })
      continue
    }
    const linked = hardLinkReason(lookups.lstat(real), shown, { home, shellgateHome: secrets.dir }, lookups)
    if (linked) {
      concerns.push({ kind: 'secret', path: real, reason: linked })
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

const ALLOWED_ROOTS = new Map<string, string[]>()
const MAX_MEMO = 64

function allowedRoots(options: PlaceOptions, cwd: string): string[] | null {
  const workspace = options.workspace
  if (workspace === undefined) return null
  const folders = options.readableFolders ?? []
  const key = folders.length === 0 ? `${cwd}\0${workspace}` : [cwd, workspace, ...folders].join('\0')
  const found = ALLOWED_ROOTS.get(key)
  if (found) return found
  const made = resolveAllowedRoots({ ...options, cwd, workspace })
  if (ALLOWED_ROOTS.size >= MAX_MEMO) ALLOWED_ROOTS.clear()
  ALLOWED_ROOTS.set(key, made)
  return made
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

function environProblem(candidate: string, word: string, lookups: FsLookups): string | null {
  if (candidate !== '/proc' && !candidate.startsWith('/proc/')) return null
  if (path.basename(candidate) === 'environ') return `${word} is a process's environment, which holds secrets`
  if (candidate === '/proc' || lookups.stat(candidate)?.isDirectory())
    return `${word} is a /proc folder, which holds every process's environment`
  return null
}

const OTHER_PROCESS_VIEW = /^\/(?:proc\/[^/]+\/(?:task\/[^/]+\/)?(?:cwd|fd|root)|dev\/fd)(?:\/|$)/
const DOT_DOT = /(?:^|\/)\.\.(?:\/|$)/

function realOrNull(file: string): string | null {
  try {
    return realpathSync.native(file)
  } catch {
    return null
  }
}

function displayPath(file: string, home: string): string {
  if (file === home) return '~'
  return isInside(file, home) ? `~/${path.relative(home, file)}` : file
}
