/**
 * How the session's shell expands a glob (issue 21.2): which shell, the options its snapshot
 * replays, and the locale's character model. The verdict matches files exactly as that shell
 * would; when something is not known, it matches as every possibility at once (a superset), so a
 * file the shell would pick is never missed.
 */
export interface ShellGlobbing {
  /** null: not known, so bash's and zsh's readings both count. */
  shell: 'bash' | 'zsh' | null
  /**
   * The glob options in the shell's own names (`dotglob`, `extglob`, `globstar`, `nocaseglob`,
   * `nullglob`, `failglob`, `globskipdots`, `globasciiranges`; zsh's `extendedglob`, `globdots`,
   * `nocaseglob`, `kshglob`, `globstarshort`, `nullglob`, `nomatch`), lower-cased without `_`; null: not known.
   */
  options: ReadonlySet<string> | null
  /** How `?` and `[…]` count: UTF-8 characters, bytes (the C locale), or either (not known). */
  characters: 'utf8' | 'bytes' | null
}

/** Nothing known: every shell, every option, either character model. */
export const UNKNOWN_GLOBBING: ShellGlobbing = { shell: null, options: null, characters: null }

/** What the matcher needs, resolved from the options; booleans are "may be on". */
export interface GlobSemantics {
  dotglob: boolean
  /**
   * How case is compared, each reading that may apply: exactly; every character folded (bash's
   * nocaseglob); or only the literal characters, brackets exact (zsh's NO_CASE_GLOB: `[a]` does
   * not match A there, `[^b]` does match B).
   */
  cases: ReadonlyArray<'sensitive' | 'fold-all' | 'fold-literals'>
  /** bash's `?( ) *( ) +( ) @( ) !( )` are patterns. */
  extglob: boolean
  /** zsh's `^`, `~`, `#` are patterns. */
  zshExtended: boolean
  /** What a `**` part is before a slash and as the last part: recursive (bash's globstar, zsh always before a slash), or a plain star. */
  starStarBefore: ReadonlyArray<'recursive' | 'plain'>
  starStarLast: ReadonlyArray<'recursive' | 'plain'>
  /** `.*` may match `.` and `..` (bash without globskipdots, zsh never). */
  dotDirs: boolean
  /** Ranges may follow the locale's collation instead of code points (globasciiranges off). */
  localeRanges: boolean
  characters: ReadonlyArray<'utf8' | 'bytes'>
}

// A session's globbing is one object for as long as its snapshot holds: read it once, not per call.
const SEMANTICS = new WeakMap<ShellGlobbing, GlobSemantics>()

export function globSemantics(globbing: ShellGlobbing): GlobSemantics {
  let semantics = SEMANTICS.get(globbing)
  if (!semantics) {
    semantics = readGlobSemantics(globbing)
    SEMANTICS.set(globbing, semantics)
  }
  return semantics
}

function readGlobSemantics(globbing: ShellGlobbing): GlobSemantics {
  const { shell, options } = globbing
  const on = (name: string) => options === null || options.has(name)
  const bash = shell !== 'zsh'
  const zsh = shell !== 'bash'
  const off = (name: string) => options === null || !options.has(name)
  const cases = new Set<'sensitive' | 'fold-all' | 'fold-literals'>()
  if (bash) cases.add(on('nocaseglob') ? 'fold-all' : 'sensitive')
  if (bash && options === null) cases.add('sensitive')
  if (zsh) cases.add(off('caseglob') ? 'fold-literals' : 'sensitive')
  if (zsh && options === null) cases.add('sensitive')
  const starStar = (recursive: boolean, plain: boolean) => [
    ...(recursive ? ['recursive' as const] : []),
    ...(plain ? ['plain' as const] : []),
  ]
  return {
    dotglob: (bash && on('dotglob')) || (zsh && on('globdots')),
    cases: [...cases],
    extglob: bash && on('extglob'),
    zshExtended: zsh && on('extendedglob'),
    starStarBefore: starStar((bash && on('globstar')) || zsh, bash && off('globstar')),
    starStarLast: starStar(
      (bash && on('globstar')) || (zsh && on('globstarshort')),
      (bash && off('globstar')) || (zsh && off('globstarshort')),
    ),
    dotDirs: bash && (options === null || !options.has('globskipdots')),
    localeRanges: bash && (options === null || !options.has('globasciiranges')),
    characters: globbing.characters === null ? ['utf8', 'bytes'] : [globbing.characters],
  }
}

/** The character model of a locale environment (LC_ALL, then LC_CTYPE, then LANG). */
export function localeCharacters(env: Readonly<Record<string, string | undefined>>): 'utf8' | 'bytes' {
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || ''
  return /utf-?8/i.test(locale) ? 'utf8' : 'bytes'
}
