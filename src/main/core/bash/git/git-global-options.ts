import { findConfigOverrideProblem } from './git-config-overrides'

/** Global options that only choose whether git pages its output. */
const HARMLESS_GLOBAL_OPTIONS = new Set(['--no-pager', '-P', '--paginate', '-p'])

/** Global options that change which configuration, repository or programs git uses. */
export const DANGEROUS_GLOBAL_OPTIONS: Readonly<Record<string, string>> = {
  '-c': 'git -c sets configuration that can name programs to run',
  '-C': 'git -C runs in another directory, with that repository’s config and hooks',
  '--git-dir': 'git --git-dir points git at another repository and its config',
  '--work-tree': 'git --work-tree points git at another work tree',
  '--exec-path': 'git --exec-path makes git run its helpers from another directory',
  '--config-env': 'git --config-env sets configuration from the environment',
  '--namespace': 'git --namespace changes which refs git reads and writes',
  '--super-prefix': 'git --super-prefix is internal and changes how paths are resolved',
  '--shallow-file': 'git --shallow-file points git at another shallow file',
  '--attr-source': 'git --attr-source reads attributes (and the filters they select) from a tree',
  '--bare': 'git --bare treats the directory as a repository',
}

export type GlobalOptionsResult =
  | {
      ok: true
      rest: string[]
      /** `-C DIR` words in order; each changes directory relative to the one before. */
      directories: string[]
    }
  | { ok: false; reason: string }

/**
 * Skip harmless global options; refuse any other, naming why for the known dangerous ones. `-C DIR`
 * is passed back: the caller checks DIR is inside the workspace and judges that repository instead.
 */
export function readGitGlobalOptions(args: string[]): GlobalOptionsResult {
  let index = 0
  const directories: string[] = []
  while (index < args.length && (args[index] as string).startsWith('-')) {
    const arg = args[index] as string
    // `-c color.ui=never`: a display setting only; any other key is refused by name.
    if (arg === '-c' && args[index + 1] !== undefined) {
      const problem = findConfigOverrideProblem(args[index + 1] as string)
      if (problem) return { ok: false, reason: problem }
      index += 2
      continue
    }
    if (arg === '-C' && (args[index + 1] ?? '') !== '') {
      directories.push(args[index + 1] as string)
      index += 2
      continue
    }
    if (!HARMLESS_GLOBAL_OPTIONS.has(arg)) {
      const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg
      const known = Object.hasOwn(DANGEROUS_GLOBAL_OPTIONS, name) ? DANGEROUS_GLOBAL_OPTIONS[name] : undefined
      return { ok: false, reason: known ?? `git ${name} is not a global option known to be read-only` }
    }
    index += 1
  }
  return { ok: true, rest: args.slice(index), directories }
}
