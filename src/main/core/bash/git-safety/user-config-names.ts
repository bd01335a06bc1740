import { type Stats, statSync } from 'node:fs'
import path from 'node:path'
import { isIncludePath, parseGitConfig } from '../../secrets/git-config-text'
import { valueHoldsCredential } from '../../secrets/git-secret-keys'
import { readRegularFile } from './bounded-read'
import { changedRecently } from '../places/recent-change'

/**
 * Config names with a password in them, from the user's and the system's git config: git reads
 * those too when the command runs outside the sandbox, and `url.<base>.insteadOf` rewrites every
 * remote URL it prints (`git remote -v`) into `<base>`, which CI setups fill with a token
 * (`url."https://x-access-token:TOKEN@github.com/".insteadOf`). The repository's own config is
 * read by git itself (git-config-by-git); these files are read here, include.path and every
 * includeIf.*.path followed whatever its condition (the wider reading), bounded in size and depth.
 *
 * Kept between calls while every file read (and every include that was missing) has the identity
 * and times it had; a file changed within RECENT_CHANGE_MS is read again on the next call, since
 * another change in the same clock tick would leave its times as they were.
 */
/** `logFollow`: `log.follow` is true in one of them (git log -- ONE-PATH then follows renames). */
export type UserConfigNames = { names: string[]; logFollow?: boolean } | { unknown: string }

const MAX_CONFIG_BYTES = 256 * 1024
const MAX_INCLUDE_DEPTH = 10

interface Kept {
  key: string
  stamps: Array<[file: string, stamp: string]>
  answer: UserConfigNames
}

let kept: Kept | null = null

export function userConfigCredentialNames(
  home: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): UserConfigNames {
  const roots = userConfigFiles(home, env)
  const key = roots.join('\0')
  if (kept?.key === key && kept.stamps.every(([file, stamp]) => stampOf(file) === stamp)) return kept.answer
  const stamps: Array<[string, string]> = []
  const names: string[] = []
  let logFollow = false
  let recent = false
  const visit = (file: string, depth: number): string | null => {
    if (depth > MAX_INCLUDE_DEPTH) return `${file} is included more than ${MAX_INCLUDE_DEPTH} deep`
    const stats = statOrNull(file)
    stamps.push([file, stamp(stats)])
    if (stats === null) return null
    if (changedRecently(stats)) recent = true
    let text: string
    try {
      const data = readRegularFile(file, { maxBytes: MAX_CONFIG_BYTES, followSymlinks: true })
      if (data === null) return null
      text = data.toString('utf8')
    } catch (error) {
      return (error as Error).message
    }
    for (const { name, value } of parseGitConfig(text).entries) {
      if (valueHoldsCredential(name)) names.push(name.toLowerCase())
      if (name.toLowerCase() === 'log.follow') logFollow = isGitTrue(value)
      if (!isIncludePath(name)) continue
      const problem = visit(includedFile(value, file, home), depth + 1)
      if (problem !== null) return problem
    }
    return null
  }
  let problem: string | null = null
  for (const root of roots) problem ??= visit(root, 0)
  const answer: UserConfigNames =
    problem === null
      ? { names, logFollow }
      : { unknown: `the user's git config cannot be checked: ${problem}` }
  kept = recent ? null : { key, stamps, answer }
  return answer
}

/** Where git looks, in its order: the system file, then XDG's and ~/.gitconfig. */
export function userConfigFiles(home: string, env: Readonly<Record<string, string | undefined>>): string[] {
  const xdg = env.XDG_CONFIG_HOME ? env.XDG_CONFIG_HOME : path.join(home, '.config')
  return ['/etc/gitconfig', path.join(xdg, 'git', 'config'), path.join(home, '.gitconfig')]
}

/** git resolves `~/` against HOME and a relative path against the including file's folder. */
function includedFile(value: string, from: string, home: string): string {
  if (value === '~' || value.startsWith('~/')) return path.join(home, value.slice(1))
  return path.resolve(path.dirname(from), value)
}

function statOrNull(file: string): Stats | null {
  try {
    return statSync(file, { throwIfNoEntry: false }) ?? null
  } catch {
    return null
  }
}

function stamp(stats: Stats | null): string {
  return stats ? `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}` : 'missing'
}

function stampOf(file: string): string {
  return stamp(statOrNull(file))
}

/**
 * git's boolean: a key with no value, or true, yes, on or a non-zero number, in any case. An
 * empty value (`follow =`, false to git) counts as true too: the parser cannot tell it from none,
 * and a wrong true only asks.
 */
export function isGitTrue(value: string | null | undefined): boolean {
  if (value === null || value === undefined) return true
  const lower = value.trim().toLowerCase()
  if (lower === '') return true
  return ['true', 'yes', 'on'].includes(lower) || (/^-?\d+$/.test(lower) && Number(lower) !== 0)
}
