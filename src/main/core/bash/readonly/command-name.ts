/** Wrappers that run their argument as a plain command with nothing added (`command ls` is `ls`). */
const TRANSPARENT_WRAPPERS = new Set(['command', 'builtin', 'noglob'])

/** Drop leading `command` / `builtin` / `noglob`; `command -v x` is a lookup, kept as it is. */
export function stripTransparentWrappers(argv: string[]): string[] {
  let start = 0
  while (start < argv.length && TRANSPARENT_WRAPPERS.has(argv[start] as string)) {
    const next = argv[start + 1]
    if (argv[start] === 'command' && next?.startsWith('-')) break
    start += 1
  }
  return argv.slice(start)
}

/**
 * A UNC path (`\\host\share`) makes Windows connect to that host and offer the user's credentials,
 * even for a read. On Windows `//host/share` means the same.
 */
export function findUncPath(argv: string[], platform: NodeJS.Platform): string | null {
  for (const arg of argv) {
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : arg
    if (value.startsWith('\\\\') || arg.startsWith('\\\\')) return arg
    if (platform === 'win32' && (/^\/\/[^/]/.test(value) || /^\/\/[^/]/.test(arg))) return arg
  }
  return null
}

/** `./cat` or `/tmp/x/cat` runs whatever file is there, not the `cat` the tables describe. */
export function isPathQualified(name: string, platform: NodeJS.Platform): boolean {
  return name.includes('/') || (platform === 'win32' && name.includes('\\'))
}
