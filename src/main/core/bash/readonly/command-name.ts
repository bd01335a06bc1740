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

// Folders only root writes, where a known name is the system's own tool, not a planted file.
const STANDARD_BIN_DIRS: Readonly<Partial<Record<NodeJS.Platform, ReadonlySet<string>>>> = {
  linux: new Set(['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin']),
  darwin: new Set(['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin', '/opt/homebrew/bin']),
}

/**
 * `/usr/bin/rg` is `rg`: an absolute path into a standard system folder names the system's tool.
 * Anything else with a slash (`./rg`, `/tmp/x/rg`, `/usr/bin/../../tmp/rg`) stays a file to run.
 */
export function standardBinaryName(name: string, platform: NodeJS.Platform): string | null {
  const slash = name.lastIndexOf('/')
  if (slash <= 0) return null
  const dir = name.slice(0, slash)
  const base = name.slice(slash + 1)
  if (base === '' || base === '.' || base === '..' || dir.includes('/.')) return null
  return STANDARD_BIN_DIRS[platform]?.has(dir) ? base : null
}
