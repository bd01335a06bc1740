/**
 * Wrappers that run another command (seed 003: env, sudo, nohup, time, command). The suggestion
 * walk looks through at most two of them; deny and ask rules look through all of them, because a
 * wrapper must never hide `rm` from a deny rule.
 */

/** Options of each wrapper that take a value, so `sudo -u bob npm test` finds `npm`. */
const WRAPPER_VALUE_OPTIONS: Record<string, ReadonlySet<string>> = {
  env: new Set(['-u', '--unset', '-C', '--chdir']),
  sudo: new Set([
    '-u',
    '--user',
    '-g',
    '--group',
    '-C',
    '--close-from',
    '-D',
    '--chdir',
    '-h',
    '--host',
    '-p',
    '--prompt',
    '-r',
    '--role',
    '-t',
    '--type',
    '-U',
    '--other-user',
  ]),
  nohup: new Set(),
  time: new Set(['-f', '--format', '-o', '--output']),
  command: new Set(),
}

/** Wrapper options that change what runs next (a shell, a split string): the command behind them is unknowable. */
const OPAQUE_WRAPPER_OPTIONS: Record<string, ReadonlySet<string>> = {
  env: new Set(['-S', '--split-string']),
  sudo: new Set([
    '-s',
    '--shell',
    '-i',
    '--login',
    '-e',
    '--edit',
    '-l',
    '--list',
    '-v',
    '--validate',
    '-k',
    '-K',
  ]),
  command: new Set(['-v', '-V']),
}

export const SUGGESTION_WRAPPER_DEPTH = 2

export interface UnwrappedCommand {
  /** The wrapper words as written, options and env assignments included. */
  wrapperWords: string[]
  /** The command the wrappers run. */
  argv: string[]
}

/**
 * Peels up to `maxDepth` wrappers off argv. Null when a wrapper's options make the inner command
 * unknowable (`sudo -s`, `env -S`), or when a wrapper wraps nothing.
 */
export function unwrapCommand(argv: readonly string[], maxDepth: number): UnwrappedCommand | null {
  const wrapperWords: string[] = []
  let rest = [...argv]
  for (let depth = 0; depth < maxDepth; depth += 1) {
    const name = rest[0]
    if (name === undefined || !Object.hasOwn(WRAPPER_VALUE_OPTIONS, name)) break
    const start = innerCommandStart(name, rest)
    if (start === null || start >= rest.length) return null
    wrapperWords.push(...rest.slice(0, start))
    rest = rest.slice(start)
  }
  return { wrapperWords, argv: rest }
}

function innerCommandStart(name: string, argv: readonly string[]): number | null {
  const valueOptions = WRAPPER_VALUE_OPTIONS[name] ?? new Set<string>()
  const opaque = OPAQUE_WRAPPER_OPTIONS[name] ?? new Set<string>()
  let i = 1
  while (i < argv.length) {
    const word = argv[i] as string
    if (word === '--') return i + 1
    if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
      i += 1
      continue
    }
    if (!word.startsWith('-') || word === '-') return name === 'env' && word === '-' ? i + 1 : i
    const option = word.includes('=') ? word.slice(0, word.indexOf('=')) : word
    if (opaque.has(option)) return null
    i += valueOptions.has(word) ? 2 : 1
  }
  return i
}
