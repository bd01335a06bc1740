import path from 'node:path'
import { isSecretFileName } from '../secrets/secret-file-names'
import { analyzeCommand } from './analysis/analyze-command'
import type { AnalyzedCommand } from './analysis/command-analysis'
import type { CommandVerdict } from './verdict'

/**
 * The verdict for a command the agent runs in its own shell (issue 20.2): a hook whose client
 * cannot hand the command to Shellgate. No sandbox hides the workspace's secrets, no clean
 * environment drops the agent's credentials, no pid namespace hides other processes and stdout
 * may be a terminal. So whatever is read-only only because of those asks here: recursive content
 * reads, variables off a short list, pagers and commands that page on a terminal, /proc, names
 * that hold secrets, globs, process and environment listings. What already needs a rule or the
 * person is returned as it is.
 */
export function unsandboxedVerdict(verdict: CommandVerdict, cwd: string): CommandVerdict {
  if (!verdict.readOnly) return verdict
  const problem = lineProblem(verdict.command, cwd, 0)
  if (problem === null) return verdict
  const reason = `${problem}; it would run in the agent's own shell, unsandboxed`
  return {
    ...verdict,
    readOnly: false,
    reason,
    parts: verdict.parts.map((part) => ({ ...part, readOnly: false, reason })),
    asks: undefined,
  }
}

/**
 * Variables whose value the agent's shell holds anyway and no secret: where it is, who it is.
 * `$?`/`$#`/`$$` say how the last command went. Everything else may be a credential there.
 */
const SAFE_VARIABLES = new Set([
  'HOME',
  'PWD',
  'OLDPWD',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'TMPDIR',
  '?',
  '#',
  '$',
])

/** `$(…)` inside `$(…)` deeper than the verdict follows is refused there already. */
const MAX_DEPTH = 4

function lineProblem(command: string, cwd: string, depth: number): string | null {
  if (depth > MAX_DEPTH) return 'its command substitutions nest too deep to judge'
  const analysis = analyzeCommand(command)
  if (!analysis.parsed) return 'it does not parse'
  for (const part of analysis.commands) {
    const problem = partProblem(part, cwd, depth)
    if (problem !== null) return problem
  }
  return null
}

function partProblem(part: AnalyzedCommand, cwd: string, depth: number): string | null {
  for (const expansion of part.dynamicParts) {
    const problem = expansionProblem(expansion, part, cwd, depth)
    if (problem !== null) return problem
  }
  const words = part.wordValues.filter((word): word is string => word !== null)
  const targets = part.redirects.flatMap((redirect) => (redirect.target === null ? [] : [redirect.target]))
  for (const word of [...words, ...targets]) {
    const problem = wordProblem(word, cwd)
    if (problem !== null) return problem
  }
  if (part.globArgs.length > 0 && !NAMES_ONLY.has(programName(part))) {
    // The read-only sandbox hides secret files a glob may match; in the agent's shell it matches them.
    return `${part.text} expands a glob, which may match files that hold secrets`
  }
  return commandProblem(part)
}

function expansionProblem(text: string, part: AnalyzedCommand, cwd: string, depth: number): string | null {
  const name = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*|[?#$])\}|([A-Za-z_][A-Za-z0-9_]*|[?#$]))$/.exec(text)
  const variable = name?.[1] ?? name?.[2]
  if (variable !== undefined)
    return SAFE_VARIABLES.has(variable)
      ? null
      : `it expands ${text}, which in the agent's own environment may hold a secret`
  const inner = part.wordExpansions.find(
    (expansion) => expansion.kind === 'command' && expansion.text === text,
  )
  if (inner?.kind === 'command') return lineProblem(inner.inner, cwd, depth + 1)
  return `it expands ${text.length > 60 ? `${text.slice(0, 60)}…` : text} at run time, which in the agent's own environment may reveal a secret`
}

function wordProblem(word: string, cwd: string): string | null {
  for (const piece of word.split('=')) {
    if (piece === '') continue
    const resolved = path.resolve(cwd, piece)
    if (resolved === '/proc' || resolved.startsWith('/proc/'))
      return `it reads ${piece}: /proc shows the agent's own processes, their environment and files`
    const secret = piece.split('/').find((segment) => segment !== '' && isSecretFileName(segment))
    if (secret !== undefined) return `it names ${secret}, a file that holds secrets`
  }
  return null
}

/** Print names or sizes only, never what a file holds: a glob there shows no secret. */
const NAMES_ONLY = new Set(['ls', 'echo', 'printf', 'stat', 'wc', 'du', 'basename', 'dirname'])

/** Recursive by default: the whole tree's contents, .env files included. */
const ALWAYS_RECURSIVE = new Set(['rg', 'ag', 'ack', 'ack-grep', 'pt', 'ugrep', 'ug', 'sift'])
/** Recursive with -r/-R (also inside a cluster) or --recursive. */
const RECURSIVE_WITH_FLAG = new Set(['grep', 'egrep', 'fgrep', 'zgrep', 'diff', 'zipgrep'])
/** Pagers, and programs that open one when stdout is a terminal. */
const PAGERS = new Set(['less', 'more', 'most', 'pg', 'man', 'info', 'perldoc', 'pydoc', 'pydoc3', 'ri'])
/** systemd's tools page through $SYSTEMD_PAGER on a terminal unless --no-pager. */
const SYSTEMD_PAGING =
  /^(?:journalctl|systemctl|loginctl|busctl|coredumpctl|networkctl|resolvectl|timedatectl|hostnamectl|localectl|machinectl|homectl|portablectl|userdbctl|bootctl)$/
/** Without the sandbox's pid namespace these show every process of the user, command lines and all. */
const PROCESS_LISTERS = new Set([
  'ps',
  'top',
  'htop',
  'atop',
  'pstree',
  'pgrep',
  'lsof',
  'fuser',
  'procs',
  'w',
])
/** Print the shell's environment, which here is the agent's, credentials included. */
const ENVIRONMENT_PRINTERS = new Set([
  'env',
  'printenv',
  'set',
  'declare',
  'typeset',
  'export',
  'compgen',
  'readonly',
])

function commandProblem(part: AnalyzedCommand): string | null {
  const name = programName(part)
  // A word only known at run time was judged above; here it stands as an empty one.
  const args = part.wordValues.slice(1).map((word) => word ?? '')
  const options = optionsOf(args)
  if (ALWAYS_RECURSIVE.has(name)) return `${name} reads the whole tree, files that hold secrets included`
  if (RECURSIVE_WITH_FLAG.has(name) && (options.some(isRecursiveFlag) || args.includes('recurse')))
    return `${name} -r reads the whole tree, files that hold secrets included`
  if (name === 'git') return gitProblem(part, args)
  if (
    name === 'tar' &&
    (options.some((option) => option === '--create' || /^-[^-]*c/.test(option)) ||
      /^[^-]*c/.test(args[0] ?? ''))
  )
    return 'tar -c reads the whole tree, files that hold secrets included'
  if (name === 'xargs') return 'xargs takes its file names from its input, which no check sees'
  if (PAGERS.has(name)) return `${name} is a pager: on a terminal it runs commands typed into it (!cmd)`
  if (SYSTEMD_PAGING.test(name) && !options.includes('--no-pager') && !pagerSetToCat(part, 'SYSTEMD_PAGER'))
    return `${name} pages its output on a terminal unless --no-pager is given`
  if (
    name === 'bat' &&
    !options.some((option) => option === '-P' || option === '--paging=never' || option === '--no-paging')
  )
    return 'bat pages its output on a terminal unless --paging=never is given'
  if (PROCESS_LISTERS.has(name))
    return `${name} shows every process of this user, their command lines included`
  if (ENVIRONMENT_PRINTERS.has(name) && (name !== 'env' || onlyEnvOptions(args)))
    return `${name} prints the agent's own environment, credentials included`
  return null
}

/** git pages on a terminal unless --no-pager/-P comes first or GIT_PAGER/PAGER is cat. */
function gitProblem(part: AnalyzedCommand, args: string[]): string | null {
  const global = globalGitOptions(args)
  if (global.includes('-p') || global.includes('--paginate'))
    return 'git -p opens a pager, which runs commands typed into it'
  const subcommand = args[global.length]
  if (subcommand === 'grep') return 'git grep reads every tracked file, those that hold secrets included'
  if (subcommand === 'help') return 'git help opens man, a pager'
  if (global.includes('--no-pager') || global.includes('-P')) return null
  if (pagerSetToCat(part, 'GIT_PAGER') || pagerSetToCat(part, 'PAGER')) return null
  return 'git may open a pager on a terminal (which runs commands typed into it): add --no-pager'
}

/** git's options before its subcommand (with the values of -C, -c and the like). */
function globalGitOptions(args: string[]): string[] {
  const taken: string[] = []
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string
    if (!arg.startsWith('-')) break
    taken.push(arg)
    if (
      (arg === '-C' ||
        arg === '-c' ||
        arg === '--git-dir' ||
        arg === '--work-tree' ||
        arg === '--namespace') &&
      index + 1 < args.length
    ) {
      taken.push(args[index + 1] as string)
      index++
    }
  }
  return taken
}

function pagerSetToCat(part: AnalyzedCommand, variable: string): boolean {
  return part.envAssignments.some(
    (assignment) => assignment.name === variable && (assignment.value === 'cat' || assignment.value === ''),
  )
}

/** `env` alone (or with -0/-u/-i and assignments) prints; `env X=1 ls` runs ls. */
function onlyEnvOptions(args: string[]): boolean {
  return args.every((arg) => arg.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg))
}

function isRecursiveFlag(option: string): boolean {
  if (option === '--recursive' || option === '--dereference-recursive') return true
  if (option === '--directories=recurse' || option === '-drecurse') return true
  return /^-[^-]*[rR]/.test(option)
}

/** The options before `--`: conservative, a value that looks like an option counts as one. */
function optionsOf(args: string[]): string[] {
  const end = args.indexOf('--')
  return (end === -1 ? args : args.slice(0, end)).filter((arg) => arg.startsWith('-'))
}

function programName(part: AnalyzedCommand): string {
  const first = part.wordValues[0]
  return first ? path.basename(first) : ''
}
