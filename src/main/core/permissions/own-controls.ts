import { realpathSync } from 'node:fs'
import path from 'node:path'
import type { CommandVerdict } from '../bash/verdict'
import { nestedCommands } from './nested-commands'

/**
 * Shellgate's own controls are never an agent's (issue 20): the commands that start a UI, mint a
 * login, rewrite an agent's config, answer hooks, redeem tickets or run outside the policy, and
 * the files under SHELLGATE_HOME (the hub's socket, the audit log, sessions, settings). An agent's
 * command that reaches either is denied before any rule is read, in every mode, so no repository
 * or user rule can allow it and no card offers it.
 */
export interface OwnControlPlaces {
  shellgateHome: string
  userHome: string
  cwd: string
  /** Entry scripts of this install (bin/shellgate.js, out/main/cli.js, src/main/cli.ts): `node X …` runs Shellgate. */
  selfEntries: readonly string[]
}

/** Subcommands that only print what Shellgate would do or what it sees; everything else is a control. */
const INFORMATION_ONLY = new Set(['classify', 'env', 'shells', 'sandbox', 'net', 'doctor', 'help'])
const SHELLGATE_BASENAMES = new Set(['shellgate', 'shellgate.js', 'shellgate.cmd', 'shellgate.mjs'])
const PACKAGE_RUNNERS = new Set(['npx', 'bunx', 'pnpx'])
const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun'])
const SCRIPT_RUNNERS = new Set(['node', 'nodejs', 'tsx', 'ts-node', 'bun', 'deno'])
/** Options of node/tsx/npx that take the next word as their value. */
const VALUE_OPTIONS = new Set([
  '--import',
  '-r',
  '--require',
  '--loader',
  '--experimental-loader',
  '--env-file',
  '-C',
  '--conditions',
  '-p',
  '--package',
  '--prefix',
  '-w',
  '--workspace',
])
/** A published or cloned install's entry, by its place in the package. */
const ENTRY_PATH = /(^|\/)shellgate\/(bin\/shellgate\.js|out\/main\/cli\.js|src\/main\/cli\.ts)$/

/** Why this command may not run for an agent; null when it touches none of Shellgate's controls. */
export function ownControlUse(verdict: CommandVerdict, places: OwnControlPlaces): string | null {
  const home = homeSpellings(places)
  const text = verdict.command
  if (/\$\{?SHELLGATE_HOME\b/.test(text) || home.texts.some((spelling) => text.includes(spelling)))
    return `it names Shellgate's own folder (${places.shellgateHome}: the hub's socket, audit log, sessions and settings), which no agent command may touch`
  // Relative words are judged from every folder the line moves to: `cd .. && cat sg-home/audit.jsonl`.
  const folders = [places.cwd]
  for (const part of verdict.parts) {
    const [program, target] = part.argv ?? []
    if ((program === 'cd' || program === 'pushd') && target !== undefined)
      folders.push(path.resolve(folders.at(-1) as string, target.replace(/^~(?=\/|$)/, places.userHome)))
  }
  for (const part of verdict.parts) {
    if (part.argv === null) {
      // `$(which shellgate) ui`, `SG=shellgate; $SG serve`: a program the shell computes cannot be told apart.
      if (/shellgate/i.test(text))
        return `it runs words the shell computes in a line naming Shellgate (${part.text.slice(0, 80)}); Shellgate's own commands are not an agent's`
      continue
    }
    const words = [
      ...part.argv,
      ...part.envAssignments.flatMap((assignment) => (assignment.value === null ? [] : [assignment.value])),
      ...part.redirects.flatMap((redirect) => (redirect.target === null ? [] : [redirect.target])),
    ]
    const inHome = words.find((word) =>
      folders.some((folder) => pointsIntoHome(word, { ...places, cwd: folder }, home.prefixes)),
    )
    if (inHome !== undefined)
      return `it reaches Shellgate's own folder (${inHome}), which no agent command may touch`
    const nested = nestedCommands(part.argv)
    for (const argv of [part.argv, ...nested]) {
      const args = shellgateArguments(argv, places)
      if (args === null) continue
      const sub = args.find((word) => !word.startsWith('-')) ?? null
      // Started by another program (xargs, find -exec), it gets words we cannot see: only a named
      // information command passes there.
      const bare = argv === part.argv && args.length === 0
      const infoFlag = bare || ['--help', '-h', '--version', '-v'].includes(args[0] ?? '')
      if (infoFlag || (sub !== null && INFORMATION_ONLY.has(sub) && args[0] === sub)) continue
      return `\`shellgate ${sub ?? args[0] ?? ''}\` is one of Shellgate's own controls (its UI, logins, agent setup, hooks, tickets, runs outside the policy), which an agent may not use; the person runs it in their own terminal`
    }
  }
  return null
}

/**
 * The entry scripts of the install this process runs from, found from its own entry (argv[1]):
 * bin/shellgate.js, out/main/cli.js, src/main/cli.ts (and the app's out/main/index.js).
 */
export function installEntries(entry: string | undefined): string[] {
  if (!entry) return []
  const match = /^(.*)\/(bin\/shellgate\.js|out\/main\/(cli|index)\.js|src\/main\/cli\.ts)$/.exec(entry)
  if (!match) return [entry]
  const root = match[1] as string
  return ['bin/shellgate.js', 'out/main/cli.js', 'src/main/cli.ts'].map((file) => path.join(root, file))
}

/** The words after the Shellgate program in argv, however it is launched; null when argv is not Shellgate. */
function shellgateArguments(argv: readonly string[], places: OwnControlPlaces): string[] | null {
  const program = argv[0]
  if (program === undefined) return null
  if (isShellgateEntry(program, places)) return argv.slice(1)
  const name = path.basename(program)
  if (PACKAGE_RUNNERS.has(name)) {
    const rest = afterOptions(argv, 1)
    return isShellgatePackage(rest[0]) ? rest.slice(1) : null
  }
  if (PACKAGE_MANAGERS.has(name)) {
    // npm exec / npm x / pnpm exec|dlx / yarn dlx|exec / bun x, then options, then the package; `yarn shellgate` too.
    const verb = argv[1]
    if (verb !== undefined && isShellgatePackage(verb)) return argv.slice(2)
    if (!['exec', 'x', 'dlx'].includes(verb ?? '')) return null
    const rest = afterOptions(argv, 2)
    return isShellgatePackage(rest[0]) ? rest.slice(1) : null
  }
  if (SCRIPT_RUNNERS.has(name)) {
    const start = name === 'deno' && argv[1] === 'run' ? 2 : 1
    // `node -e '…'` runs code we cannot read; naming Shellgate's entry in it is the same as running it.
    const evaluated = argv.findIndex((word) => ['-e', '--eval', '-p', '--print'].includes(word))
    if (evaluated !== -1 && /shellgate|cli\.(js|ts)/.test(argv[evaluated + 1] ?? '')) return ['(code)']
    const rest = afterOptions(argv, start)
    return rest[0] !== undefined && isShellgateEntry(rest[0], places) ? rest.slice(1) : null
  }
  return null
}

function afterOptions(argv: readonly string[], start: number): string[] {
  let i = start
  while (i < argv.length) {
    const word = argv[i] as string
    if (word === '--') return argv.slice(i + 1)
    if (!word.startsWith('-')) break
    i += VALUE_OPTIONS.has(word) ? 2 : 1
  }
  return argv.slice(i)
}

function isShellgatePackage(spec: string | undefined): boolean {
  if (spec === undefined) return false
  // shellgate, shellgate@1.2.3, @scope/shellgate@latest, a path or tarball of it.
  const name = spec.replace(/@[^@/]*$/, '')
  return path.basename(name) === 'shellgate' || /shellgate[^/]*\.tgz$/.test(spec)
}

function isShellgateEntry(word: string, places: OwnControlPlaces): boolean {
  if (SHELLGATE_BASENAMES.has(path.basename(word)) || ENTRY_PATH.test(word)) return true
  if (!word.includes('/')) return false
  const resolved = realOrSelf(path.resolve(places.cwd, word))
  return places.selfEntries.some((entry) => realOrSelf(entry) === resolved)
}

/** The home as a command may spell it: absolute (and its real path), `~/…`, `$HOME/…`. */
function homeSpellings(places: OwnControlPlaces): { texts: string[]; prefixes: string[] } {
  const absolute = [places.shellgateHome, realOrSelf(places.shellgateHome)]
  const relative = path.relative(places.userHome, places.shellgateHome)
  const underHome = relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative)
  const texts = [
    ...absolute,
    ...(underHome ? [`~/${relative}`, `$HOME/${relative}`, `\${HOME}/${relative}`] : []),
  ]
  return { texts: [...new Set(texts)], prefixes: [...new Set(absolute)] }
}

/** A word that is (or ends in, after `=` or `:`) a path inside the home, relative ones from cwd. */
function pointsIntoHome(word: string, places: OwnControlPlaces, prefixes: readonly string[]): boolean {
  const candidates = [word, ...word.split(/[=:]/).slice(1)].filter((each) => each !== '')
  return candidates.some((candidate) => {
    const expanded = candidate.startsWith('~/') ? path.join(places.userHome, candidate.slice(2)) : candidate
    if (expanded.length > 4_096 || expanded.includes('\0')) return false
    const full = realOrSelf(path.resolve(places.cwd, expanded))
    return prefixes.some((prefix) => full === prefix || full.startsWith(`${prefix}/`))
  })
}

function realOrSelf(file: string): string {
  try {
    return realpathSync(file)
  } catch {
    // Not there (yet): the path as written is what the command would create or read.
    return path.resolve(file)
  }
}
