import { readdirSync } from 'node:fs'
import path from 'node:path'

/** More entries than this in the folder, and the glob's matches are not listed: they are unknown. */
const MAX_ENTRIES = 2_000
const GLOB_CHAR = /[*?[]/

/**
 * What bash would make of a glob word in `cwd`: the entries of its folder that the pattern matches
 * (`cat -- *` reads a planted `key -> ~/.ssh/id_rsa` too), `[]` when the word holds no glob, and
 * null when the matches cannot be listed here (a glob in a folder part, a huge or unreadable folder).
 */
export function globMatches(word: string, cwd: string): string[] | null {
  const first = word.search(GLOB_CHAR)
  if (first < 0) return []
  const slash = word.lastIndexOf('/', first)
  const folder = slash < 0 ? '' : word.slice(0, slash + 1)
  const pattern = word.slice(slash + 1)
  if (pattern.includes('/')) return null
  const regex = globRegex(pattern)
  if (regex === null) return null
  let names: string[]
  try {
    names = readdirSync(path.resolve(cwd, folder || '.'))
  } catch {
    return []
  }
  if (names.length > MAX_ENTRIES) return null
  return names.filter((name) => regex.test(name)).map((name) => `${folder}${name}`)
}

/** A bash pathname pattern as a regex: `*`, `?`, `[…]` (with `!`/`^`), no leading dot unless written. */
function globRegex(pattern: string): RegExp | null {
  let source = pattern.startsWith('.') ? '' : '(?!\\.)'
  for (let at = 0; at < pattern.length; at += 1) {
    const char = pattern[at] as string
    if (char === '*') source += '.*'
    else if (char === '?') source += '.'
    else if (char === '[') {
      const close = pattern.indexOf(']', at + 2)
      if (close < 0) {
        source += '\\['
        continue
      }
      let body = pattern.slice(at + 1, close)
      const negated = body.startsWith('!') || body.startsWith('^')
      if (negated) body = body.slice(1)
      // Classes like [[:alpha:]] are not followed here: the matches are then unknown.
      if (body.includes('[')) return null
      source += `[${negated ? '^' : ''}${body.replace(/[\\\]]/g, '\\$&')}]`
      at = close
    } else if (char === '\\') {
      source += escapeRegex(pattern[at + 1] ?? '\\')
      at += 1
    } else source += escapeRegex(char)
  }
  try {
    return new RegExp(`^${source}$`, 's')
  } catch {
    return null
  }
}

function escapeRegex(char: string): string {
  return char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
}
