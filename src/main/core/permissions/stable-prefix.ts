import type { CommandRegistry, RegistryNode, RegistryOption } from './command-registry'

/**
 * The stable prefix of one command (seed 003, resolveStableCommandPrefix): the words that name the
 * action, with options and their values dropped. `pnpm --dir app run lint` → `pnpm run lint`.
 * Null when no prefix is safe to offer; the caller then falls back to an exact rule.
 */

/** Roots whose every use is dangerous enough that a prefix would allow too much (seed: 16 roots). */
export const HIGH_RISK_ROOTS: ReadonlySet<string> = new Set([
  'rm',
  'rmdir',
  'shred',
  'truncate',
  'chmod',
  'chown',
  'chgrp',
  'dd',
  'mkfs',
  'sh',
  'bash',
  'zsh',
  'fish',
  'powershell',
  'pwsh',
  'cmd',
])

/**
 * Beyond the seed: roots that run programs or code given as arguments (`find -exec`, `xargs`,
 * `node script.js`, `ssh host cmd`); `find:*` would also cover `find . -exec rm {} +`.
 */
export const PROGRAM_RUNNING_ROOTS: ReadonlySet<string> = new Set([
  'find',
  'xargs',
  'fd',
  'parallel',
  'watch',
  'eval',
  'exec',
  'source',
  '.',
  'nice',
  'timeout',
  'doas',
  'node',
  'nodejs',
  'ruby',
  'perl',
  'php',
  'lua',
  'Rscript',
  'osascript',
  'awk',
  'gawk',
  'ssh',
  'npx',
  'pnpx',
  'bunx',
])

/** The seed's wrappers: stripped by the caller, never a prefix themselves. */
const WRAPPER_ROOTS: ReadonlySet<string> = new Set(['env', 'sudo', 'nohup', 'time', 'command', 'builtin'])
const PYTHON = /^python(\d+(\.\d+)*)?$|^py$/
const SCRIPT_RUNNERS: ReadonlySet<string> = new Set(['npm', 'pnpm', 'yarn', 'bun'])
const TARGET_RUNNERS: ReadonlySet<string> = new Set(['make', 'gmake', 'just'])
/** Cloud CLIs whose stable action is a fixed number of words after the root (service, resource, verb). */
const CLOUD_DEPTH: Readonly<Record<string, number>> = { aws: 2, az: 2, gcloud: 3 }
/**
 * Options that change which configuration, build file or helper program runs. Skipping them would
 * let `make build:*` cover `make -f /tmp/evil.mk build`, so a command using one gets no prefix.
 */
const CONFIG_CHANGING_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  git: new Set(['-c', '--config-env', '--exec-path']),
  make: new Set(['-f', '--file', '--makefile', '-E', '--eval', '-I', '--include-dir']),
  gmake: new Set(['-f', '--file', '--makefile', '-E', '--eval', '-I', '--include-dir']),
  just: new Set(['-f', '--justfile', '--dotenv-path', '--shell', '--command']),
  npm: new Set(['--userconfig', '--globalconfig', '--script-shell', '--node-options']),
  pnpm: new Set(['--config', '--userconfig', '--globalconfig', '--script-shell', '--node-options']),
  yarn: new Set(['--use-yarnrc', '--rc-filename']),
  cargo: new Set(['--config', '-Z']),
}

export function resolveStablePrefix(argv: readonly string[], registry: CommandRegistry): string[] | null {
  const root = argv[0]
  if (root === undefined || root === '' || root.includes('/') || root.includes('\\')) return null
  if (HIGH_RISK_ROOTS.has(root) || root.startsWith('mkfs.') || PROGRAM_RUNNING_ROOTS.has(root)) return null
  // A third wrapper (past the two the caller strips) would make the prefix cover any command.
  if (WRAPPER_ROOTS.has(root)) return null
  if (usesConfigChangingOption(root, argv)) return null
  const words = prefixWords(root, argv, registry)
  if (words === null || words.some((word) => word === '' || /[*\s\0]/.test(word))) return null
  return words
}

function prefixWords(root: string, argv: readonly string[], registry: CommandRegistry): string[] | null {
  if (PYTHON.test(root)) return pythonModule(argv)
  const node = registry.root(root)
  if (root === 'deno') return positionalsAfter(argv, node, ['task'], 1)
  if (TARGET_RUNNERS.has(root)) return positionalsAfter(argv, node, [], 1, (word) => !word.includes('='))
  const cloudDepth = CLOUD_DEPTH[root]
  if (cloudDepth !== undefined) return positionalsAfter(argv, node, [], cloudDepth)
  if (!node) return [root]
  const walk = walkRegistry(argv, node)
  if (walk === null) return null
  if (
    SCRIPT_RUNNERS.has(root) &&
    ['run', 'run-script'].includes(walk.words.at(-1) ?? '') &&
    walk.words.length === 2
  ) {
    const script = nextPositional(argv, walk.next, walk.options)
    return script === null ? null : [...walk.words, script.word]
  }
  // The root alone of a command with subcommands is every action it has: too wide to offer.
  if (walk.words.length === 1 && node.hasSubcommands) return null
  return walk.words
}

function usesConfigChangingOption(root: string, argv: readonly string[]): boolean {
  const options = CONFIG_CHANGING_OPTIONS[root]
  if (!options) return false
  for (const word of argv.slice(1)) {
    if (word === '--') return false
    const name = word.includes('=') ? word.slice(0, word.indexOf('=')) : word
    // `-fFILE` and `-cKEY=V` glue the value to a short option.
    if (options.has(name) || (/^-[A-Za-z]./.test(word) && options.has(word.slice(0, 2)))) return true
  }
  return false
}

/** `python3 -m pytest tests` → `python3 -m pytest`; a script or `-c` code has no stable prefix. */
function pythonModule(argv: readonly string[]): string[] | null {
  for (let i = 1; i < argv.length; i += 1) {
    const word = argv[i] as string
    if (word === '-m') {
      const module = argv[i + 1]
      return module === undefined || module.startsWith('-') ? null : [argv[0] as string, '-m', module]
    }
    // Only value-less interpreter switches may come before -m (-u, -B, -O, -I, -E, -s, -q).
    if (!/^-[uBOIEsqSP]+$/.test(word)) return null
  }
  return null
}

interface Walk {
  words: string[]
  /** Index of the first word after the last subcommand. */
  next: number
  options: Map<string, RegistryOption>
}

/** Descends the subcommand tree, skipping options the registry knows (with their values). */
function walkRegistry(argv: readonly string[], root: RegistryNode): Walk | null {
  const words = [argv[0] as string]
  let node = root
  let options = new Map(node.options)
  let i = 1
  while (i < argv.length) {
    const word = argv[i] as string
    if (word === '--') break
    if (word.startsWith('-') && word !== '-') {
      const name = word.includes('=') ? word.slice(0, word.indexOf('=')) : word
      const option = options.get(name)
      // An unknown option might swallow the next word; stop rather than guess what is an action.
      if (!option) break
      i += option.takesValue && !word.includes('=') ? 2 : 1
      continue
    }
    const child = node.subcommand(word)
    if (!child) break
    words.push(word)
    node = child
    options = new Map([...[...options].filter(([, option]) => option.persistent), ...child.options])
    i += 1
  }
  return { words, next: i, options }
}

function nextPositional(
  argv: readonly string[],
  from: number,
  options: ReadonlyMap<string, RegistryOption>,
  accept: (word: string) => boolean = () => true,
): { word: string; index: number } | null {
  for (let i = from; i < argv.length; i += 1) {
    const word = argv[i] as string
    if (word === '--') return null
    if (word.startsWith('-') && word !== '-') {
      const name = word.includes('=') ? word.slice(0, word.indexOf('=')) : word
      const option = options.get(name)
      if (!option) return null
      if (option.takesValue && !word.includes('=')) i += 1
      continue
    }
    if (accept(word)) return { word, index: i }
  }
  return null
}

/** Fixed depth: the root, the given leading words, then `count` more positionals (options skipped). */
function positionalsAfter(
  argv: readonly string[],
  node: RegistryNode | undefined,
  leading: readonly string[],
  count: number,
  accept?: (word: string) => boolean,
): string[] | null {
  const options = new Map(node?.options ?? [])
  const words = [argv[0] as string]
  let from = 1
  for (let taken = 0; taken < leading.length + count; taken += 1) {
    const found = nextPositional(argv, from, options, taken < leading.length ? undefined : accept)
    if (found === null) return null
    if (taken < leading.length && found.word !== leading[taken]) return null
    words.push(found.word)
    from = found.index + 1
  }
  return words
}
