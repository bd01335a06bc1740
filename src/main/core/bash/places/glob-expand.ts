import path from 'node:path'
import type { FsLookups } from './fs-lookups'
import { compileSegment, hasGlobOperator } from './glob-pattern'
import type { GlobSemantics } from './shell-globbing'

/** More entries than this in one folder, and the glob's matches are not listed: they are unknown. */
const MAX_ENTRIES_PER_FOLDER = 2_000
/** More matches than this, or more folders walked by `**`, and the matches are unknown. */
const MAX_MATCHES = 2_000
const MAX_RECURSIVE_FOLDERS = 500

export type GlobExpansion = { matches: string[] } | { unknown: string }

/**
 * The words the shell makes of a glob word in `cwd`, as bash and zsh walk it (issue 21.2): segment
 * by segment, a literal segment appended as it is, a pattern segment matched against the folder's
 * entries (folders only, symlinks followed, before a `/`), `**` recursing without following
 * symlinks. `pattern` is the word with every quoted character backslash-escaped and `~` expanded.
 * Unknown when a folder is too large, a name is not valid UTF-8, or a form is not followed here.
 */
export function expandGlob(
  pattern: string,
  cwd: string,
  semantics: GlobSemantics,
  lookups: FsLookups,
): GlobExpansion {
  // zsh's exclusion reaches across folders (`src/*~*/test*`), which this walk does not follow.
  if (semantics.zshExtended && /[^\\/]~/.test(pattern) && pattern.includes('/'))
    return { unknown: "zsh's ~ exclusion across folders is not followed here" }
  const segments = splitSegments(pattern)
  const absolute = pattern.startsWith('/')
  let prefixes: string[] = [absolute ? '/' : '']
  for (let index = absolute ? 1 : 0; index < segments.length; index += 1) {
    const segment = segments[index] as string
    const last = index === segments.length - 1
    const next: string[] = []
    for (const prefix of prefixes) {
      const found = matchSegment(segment, prefix, last, cwd, semantics, lookups)
      if ('unknown' in found) return found
      next.push(...found.matches)
      if (next.length > MAX_MATCHES) return { unknown: `${pattern} matches more than ${MAX_MATCHES} files` }
    }
    prefixes = [...new Set(next)]
    if (prefixes.length === 0) break
  }
  return { matches: prefixes.filter((word) => word !== '' && word !== '/') }
}

function matchSegment(
  segment: string,
  prefix: string,
  last: boolean,
  cwd: string,
  semantics: GlobSemantics,
  lookups: FsLookups,
): GlobExpansion {
  const join = (name: string) =>
    prefix === '' || prefix.endsWith('/') ? `${prefix}${name}` : `${prefix}/${name}`
  if (segment === '') return { matches: [prefix.endsWith('/') ? prefix : `${prefix}/`] }
  if (!hasGlobOperator(segment, semantics)) {
    const word = join(removeEscapes(segment))
    // A literal last segment names a file that must exist; before a `/` it is walked into.
    const exact = !last || lookups.lstat(path.resolve(cwd, word)) ? [word] : []
    // zsh's NO_CASE_GLOB folds the literal folder names of a pattern too (`d/*` lists D/).
    const pattern = foldedSegment(segment)
    if (!semantics.cases.includes('fold-literals') || !pattern.includes('[')) return { matches: exact }
    const folded = matchSegment(pattern, prefix, last, cwd, semantics, lookups)
    if ('unknown' in folded) return folded
    return { matches: [...new Set([...exact, ...folded.matches])] }
  }
  if (segment === '***') return { unknown: "zsh's ***/ follows symlinks into any folder" }
  if (segment === '**') {
    const modes = last ? semantics.starStarLast : semantics.starStarBefore
    if (modes.includes('recursive')) {
      const deep = recurse(prefix, last, cwd, semantics, lookups)
      if (!modes.includes('plain') || 'unknown' in deep) return deep
      const plain = matchSegment('*', prefix, last, cwd, semantics, lookups)
      if ('unknown' in plain) return plain
      return { matches: [...new Set([...deep.matches, ...plain.matches])] }
    }
  }
  const matcher = compileSegment(segment, semantics)
  if (matcher === null) return { unknown: `the pattern ${segment} uses a form this check does not follow` }
  const folder = path.resolve(cwd, prefix === '' ? '.' : prefix)
  const entries = lookups.readdir(folder)
  if (entries === null) return { matches: [] }
  if (entries.length > MAX_ENTRIES_PER_FOLDER)
    return { unknown: `${folder} holds more than ${MAX_ENTRIES_PER_FOLDER} entries` }
  const names = entries.map((entry) => entry.name)
  // Without globskipdots, `.*` reads `.` and `..` too (readdir lists them to the shell).
  if (semantics.dotDirs && /^\\?\./.test(segment)) names.push('.', '..')
  const matches: string[] = []
  for (const name of names) {
    if (!matcher(name)) continue
    if (name.includes('\uFFFD')) return { unknown: `a name in ${folder} is not valid UTF-8` }
    const word = join(name)
    if (!last && !lookups.stat(path.resolve(cwd, word))?.isDirectory()) continue
    matches.push(last ? word : `${word}/`)
  }
  return { matches: matches.sort() }
}

/**
 * `**`: every file and folder below (last segment), or the folder itself and every folder below
 * (before a `/`). Symlinked folders are listed but not entered; hidden ones only with dotglob.
 */
function recurse(
  prefix: string,
  last: boolean,
  cwd: string,
  semantics: GlobSemantics,
  lookups: FsLookups,
): GlobExpansion {
  const found: string[] = last ? [] : [prefix]
  const queue = [prefix]
  let walked = 0
  while (queue.length > 0) {
    const dir = queue.shift() as string
    walked += 1
    if (walked > MAX_RECURSIVE_FOLDERS)
      return { unknown: `** walks more than ${MAX_RECURSIVE_FOLDERS} folders` }
    const entries = lookups.readdir(path.resolve(cwd, dir === '' ? '.' : dir))
    if (entries === null) continue
    if (entries.length > MAX_ENTRIES_PER_FOLDER) return { unknown: `${dir || '.'} holds too many entries` }
    for (const entry of entries) {
      if (entry.name.startsWith('.') && !semantics.dotglob) continue
      if (entry.name.includes('\uFFFD')) return { unknown: `a name in ${dir || '.'} is not valid UTF-8` }
      const word = `${dir}${entry.name}`
      // A symlinked folder is a name `**` lists, never a folder it walks through (bash and zsh alike).
      if (entry.isDirectory()) {
        queue.push(`${word}/`)
        found.push(last ? word : `${word}/`)
      } else if (last) found.push(word)
      if (found.length > MAX_MATCHES) return { unknown: `** matches more than ${MAX_MATCHES} files` }
    }
  }
  return { matches: found }
}

/** A literal segment as a pattern each of whose letters is a bracket of both cases. */
function foldedSegment(segment: string): string {
  return [...removeEscapes(segment)]
    .map((char) => {
      const lower = char.toLowerCase()
      const upper = char.toUpperCase()
      if (lower === upper) return /[\\*?[\]^#~(|)@!+]/.test(char) ? `\\${char}` : char
      return `[${lower}${upper}]`
    })
    .join('')
}

/** Split on every `/` that is not escaped. */
function splitSegments(pattern: string): string[] {
  const segments: string[] = []
  let current = ''
  for (let at = 0; at < pattern.length; at += 1) {
    const char = pattern[at] as string
    if (char === '\\' && at + 1 < pattern.length) {
      current += char + (pattern[at + 1] as string)
      at += 1
    } else if (char === '/') {
      segments.push(current)
      current = ''
    } else current += char
  }
  segments.push(current)
  return segments
}

export function removeEscapes(text: string): string {
  return text.replace(/\\([\s\S])/g, '$1')
}
