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
  /** Both cases may match (nocaseglob, or not known). */
  nocase: boolean
  /** Case-sensitive matching may apply too (for a superset with nocase). */
  caseSensitive: boolean
  /** bash's `?( ) *( ) +( ) @( ) !( )` are patterns. */
  extglob: boolean
  /** zsh's `^`, `~`, `#` are patterns. */
  zshExtended: boolean
  /** `**` recurses (bash globstar; zsh always, before a `/`). */
  globstar: boolean
  /** `.*` may match `.` and `..` (bash without globskipdots, zsh never). */
  dotDirs: boolean
  /** Ranges may follow the locale's collation instead of code points (globasciiranges off). */
  localeRanges: boolean
  characters: ReadonlyArray<'utf8' | 'bytes'>
}

export function globSemantics(globbing: ShellGlobbing): GlobSemantics {
  const { shell, options } = globbing
  const on = (name: string) => options === null || options.has(name)
  const bash = shell !== 'zsh'
  const zsh = shell !== 'bash'
  const nocase = (bash && on('nocaseglob')) || (zsh && (options === null || !options.has('caseglob')))
  return {
    dotglob: (bash && on('dotglob')) || (zsh && on('globdots')),
    nocase,
    caseSensitive: options === null || !nocase,
    extglob: bash && on('extglob'),
    zshExtended: zsh && on('extendedglob'),
    globstar: (bash && on('globstar')) || zsh,
    dotDirs: bash && (options === null || !options.has('globskipdots')),
    localeRanges: bash && (options === null || !options.has('globasciiranges')),
    characters: globbing.characters === null ? ['utf8', 'bytes'] : [globbing.characters],
  }
}

/**
 * The glob options a snapshot file sets: bash's `shopt -s NAME` lines and zsh's `setopt NAME`
 * lines (setopt prints the options that differ from zsh's defaults, `nocaseglob` included).
 */
export function readGlobOptions(snapshot: string, dialect: 'bash' | 'zsh' | 'git-bash'): Set<string> {
  const found = new Set<string>()
  const line = dialect === 'zsh' ? /^setopt\s+([A-Za-z_]+)\s*$/gm : /^shopt\s+-s\s+([A-Za-z_]+)\s*$/gm
  for (const match of snapshot.matchAll(line)) found.add((match[1] as string).toLowerCase().replaceAll('_', ''))
  // zsh's defaults that setopt lists only when they are turned off.
  if (dialect === 'zsh') {
    for (const name of ['caseglob', 'nomatch', 'bareglobqual', 'glob'])
      if (!found.has(`no${name}`)) found.add(name)
  }
  return found
}

/** The character model of a locale environment (LC_ALL, then LC_CTYPE, then LANG). */
export function localeCharacters(env: Readonly<Record<string, string | undefined>>): 'utf8' | 'bytes' {
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || ''
  return /utf-?8/i.test(locale) ? 'utf8' : 'bytes'
}
