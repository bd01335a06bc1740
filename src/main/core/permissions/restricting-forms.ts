import type { CommandRegistry } from './command-registry'

/**
 * Deny and ask rules only (never allow): the other spellings of one command a restricting rule must
 * also catch. `/bin/rm -f x` is `rm -f x`; `git -c a.b=c push` and `npm --registry x publish` are
 * `git push` and `npm publish` once the global options before the subcommand are skipped.
 */

/** Global options that take a value, for the roots whose subcommand a deny rule usually names. */
const GLOBAL_VALUE_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  git: new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix']),
  npm: new Set([
    '-w',
    '--workspace',
    '--registry',
    '--prefix',
    '-C',
    '--userconfig',
    '--globalconfig',
    '--cache',
    '--loglevel',
    '--otp',
    '--tag',
    '--access',
    '--scope',
  ]),
  pnpm: new Set([
    '-C',
    '--dir',
    '-w',
    '--filter',
    '-F',
    '--workspace-root',
    '--registry',
    '--config',
    '--loglevel',
  ]),
  yarn: new Set(['--cwd', '--registry', '--cache-folder', '--modules-folder', '--otp', '--use-yarnrc']),
  docker: new Set([
    '-c',
    '--context',
    '--config',
    '-H',
    '--host',
    '-l',
    '--log-level',
    '--tlscacert',
    '--tlscert',
    '--tlskey',
  ]),
  kubectl: new Set([
    '-n',
    '--namespace',
    '--context',
    '--cluster',
    '--kubeconfig',
    '-s',
    '--server',
    '--user',
    '--token',
    '--as',
    '--as-group',
    '--request-timeout',
    '-v',
    '--certificate-authority',
    '--client-certificate',
    '--client-key',
    '--cache-dir',
  ]),
}

/** Options of these roots that take no value; any other option is read both ways. */
const GLOBAL_FLAGS: Readonly<Record<string, ReadonlySet<string>>> = {
  git: new Set([
    '-p',
    '--paginate',
    '-P',
    '--no-pager',
    '--bare',
    '--no-replace-objects',
    '--literal-pathspecs',
    '--glob-pathspecs',
    '--noglob-pathspecs',
    '--icase-pathspecs',
    '--no-optional-locks',
    '--no-lazy-fetch',
    '--no-advice',
  ]),
}

/** More readings than this of one command's options are not tried; the rest is left unmatched. */
const MAX_READINGS = 16

/** argv, its base-name spelling, and every reading of it with the root's global options skipped. */
export function restrictingForms(argv: readonly string[], registry: CommandRegistry): string[][] {
  const first = argv[0]
  if (first === undefined) return []
  const base = baseName(first)
  const named = [base, ...argv.slice(1)]
  const forms = base === first ? [[...argv]] : [[...argv], named]
  if (Object.hasOwn(GLOBAL_VALUE_OPTIONS, base)) {
    for (const start of subcommandStarts(base, named, registry)) forms.push([base, ...named.slice(start)])
  }
  return forms
}

/** Where the subcommand may start: after known options (with values), reading unknown ones both ways. */
function subcommandStarts(root: string, argv: readonly string[], registry: CommandRegistry): number[] {
  const node = registry.root(root)
  const takesValue = (option: string): boolean | null => {
    if (GLOBAL_VALUE_OPTIONS[root]?.has(option)) return true
    if (GLOBAL_FLAGS[root]?.has(option)) return false
    const known = node?.options.get(option)
    return known ? known.takesValue : null
  }
  const starts: number[] = []
  const pending = [1]
  const visited = new Set<number>()
  while (pending.length > 0 && starts.length < MAX_READINGS) {
    let i = pending.pop() as number
    if (visited.has(i)) continue
    visited.add(i)
    while (i < argv.length) {
      const word = argv[i] as string
      if (word === '--' || !word.startsWith('-') || word === '-') break
      if (word.includes('=')) {
        i += 1
        continue
      }
      const value = takesValue(word)
      if (value === null) pending.push(i + 2)
      i += value === true ? 2 : 1
    }
    if (i > 1 && i < argv.length && argv[i] !== '--') starts.push(i)
  }
  return starts
}

function baseName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1)
}
