import type { AnalyzedCommand } from '../analysis/command-analysis'
import { evaluateGitArgv } from '../git/git-policy'
import { ANY_ARGS_COMMANDS } from './any-args-commands'
import { findUncPath, isPathQualified, standardBinaryName, stripTransparentWrappers } from './command-name'
import { evaluateDirectArgv } from './direct-argv'
import type { WalkFilter } from '../places/secret-index'
import { type EnvironmentRead, evaluateEnvironmentReader } from './environment-readers'
import { evaluateFindExec } from './find-exec'
import { walkFilterFor } from './walk-filter'
import { describeDynamicPart } from './dynamic-reason'
import { refuseEnvAssignments } from './env-allowlist'
import { parseFlags } from './flag-parser'
import {
  followsLinksInFolders,
  gitReadPaths,
  pathOperands,
  xargsOpensFiles,
  xargsReadsInputPaths,
} from './path-operands'
import { type ShellGlobbing, UNKNOWN_GLOBBING } from '../places/shell-globbing'
import { commandHasNoFileOrWriteFlags } from './flag-facts'
import {
  ANY_ARGS_GLOBS_AFTER_DOUBLE_DASH,
  findGlobProblem,
  type GlobContext,
  literalDoubleDash,
} from './glob-policy'
import type { CommandPolicy, ParsedArgs, PolicyContext } from './flag-types'
import { COMMAND_POLICIES } from './policy-tables'
import { findPrefixPolicy } from './prefix-commands'
import { platformPolicy } from './tables-platform'
import { refuseRedirects } from './redirect-policy'
import { REFUSED_COMMANDS } from './refused-commands'
import { findKnownWriteOption } from './write-options'

export interface PartVerdict {
  readOnly: boolean
  reason: string
  /** The command name after wrappers, for whole-line rules (git with cd); null when unknown. */
  name: string | null
  /** On a read-only verdict: the words it reads as files or folders, for the place checks. */
  paths?: string[]
  /** For git: the subcommand (`log`, `stash list`), for whole-line rules (partial clones). */
  gitSubcommand?: string
  /** For git: the `-C DIR` words, judged against the workspace by the whole-line rules. */
  gitDirectories?: string[]
  /** For cd/pushd/popd: the words after the name, for the folder each later part runs in. */
  directoryArgs?: string[]
  /** Some words are only known at run time and may name any file. */
  unknownPaths?: boolean
  /** It reads through symlinks it meets inside its folder operands (grep -R, diff DIR DIR). */
  followsLinks?: boolean
  /** It prints what the files under its folder operands hold (grep -r, rg): how it walks them. */
  walks?: WalkFilter | null
  /** It prints variables (printenv, declare -p): the credential check asks about them. */
  environmentReads?: EnvironmentRead
}

/**
 * The read-only policy for one simple command, as a chain of short circuits: each layer either
 * decides with a reason or passes to the next; a command no layer knows is not read-only.
 */
export function evaluateCommandPart(
  part: AnalyzedCommand,
  platform: NodeJS.Platform,
  classifyInner?: PolicyContext['classifyInner'],
  globbing?: ShellGlobbing,
): PartVerdict {
  const refuse = (reason: string, name: string | null = null): PartVerdict => ({
    readOnly: false,
    reason,
    name,
  })
  if (part.keyword === '[[')
    return { readOnly: true, reason: '[[ … ]] only tests files and strings', name: '[[', paths: [] }
  if (part.keyword === '((')
    return {
      readOnly: true,
      reason: '(( … )) only computes with integers and loop counters',
      name: '((',
      paths: [],
    }
  const dynamic = part.dynamicParts[0]
  if (dynamic !== undefined || part.argv === null) {
    return tolerateExpansions(part, classifyInner) ?? refuse(describeDynamicPart(dynamic ?? part.text))
  }
  const envProblem = refuseEnvAssignments(part.envAssignments)
  if (envProblem) return refuse(envProblem)
  const redirectProblem = refuseRedirects(part.redirects)
  if (redirectProblem) return refuse(redirectProblem)
  const argv = withStandardBinaryName(stripTransparentWrappers(part.argv), platform)
  const name = argv[0]
  if (name === undefined) return refuse('there is no command, only assignments or redirects')
  const unc = findUncPath(argv, platform)
  if (unc)
    return refuse(`${unc} is a UNC path: Windows connects to that host and offers your credentials`, name)
  if (isPathQualified(name, platform)) {
    return refuse(`${name} runs the file at that path, not a known command`, name)
  }
  const context: PolicyContext = { command: part.text, platform, classifyInner }
  const offset = part.argv.length - argv.length
  if (name === 'find') {
    const exec = evaluateFindExec(part, offset, (sub) =>
      evaluateCommandPart(sub, platform, classifyInner, globbing),
    )
    if (exec) return exec
  }
  const writeOption = findKnownWriteOption(argv)
  if (writeOption) return refuse(writeOption, name)
  const direct = evaluateDirectArgv(argv)
  if (direct) return { ...direct, name }
  const printer = evaluateEnvironmentReader(argv)
  if (printer)
    return {
      readOnly: printer.readOnly,
      reason: printer.reason,
      name,
      paths: [],
      environmentReads: printer.reads,
    }
  if (name === 'git') {
    const git = evaluateGitArgv(argv, context)
    if (!git.readOnly) return refuse(git.reason, name)
    const globProblem = findGlobProblem(part, 'git', offset, git.pathspecsAfter, undefined, {
      ...globRules(globbing, 'git', platform),
      flagsAreHarmless: false,
    })
    if (globProblem) return refuse(globProblem, name)
    // git reads the repository around the folder it runs in.
    return {
      readOnly: true,
      reason: git.reason,
      name,
      gitSubcommand: git.subcommand,
      gitDirectories: git.directories ?? [],
      paths: [...pathOperands('git', [], null, part.redirects), ...gitReadPaths(git), '.'],
    }
  }
  const prefix = findPrefixPolicy(argv)
  const table = prefix
    ? { label: prefix.prefix, policy: prefix.policy, argsFrom: prefix.words }
    : tableFor(name, platform)
  if (table) {
    const verdict = evaluateWithTable(part, argv, offset, table, context, name, globbing)
    if (name === 'cd' || name === 'pushd' || name === 'popd') verdict.directoryArgs = argv.slice(1)
    if (verdict.readOnly && prefix) verdict.paths = pathOperands(prefix.prefix, [], null, part.redirects)
    return verdict
  }
  if (ANY_ARGS_COMMANDS.has(name)) {
    const after = ANY_ARGS_GLOBS_AFTER_DOUBLE_DASH.has(name) ? literalDoubleDash(part, argv, offset, 1) : null
    const globProblem = findGlobProblem(part, name, offset, after, undefined, {
      ...globRules(globbing, name, platform),
      operandsAreFiles: ANY_ARGS_GLOBS_AFTER_DOUBLE_DASH.has(name),
    })
    if (globProblem) return refuse(globProblem, name)
    return {
      readOnly: true,
      reason: `${name} only reads, whatever its arguments`,
      name,
      paths: pathOperands(name, argv.slice(1), null, part.redirects),
      followsLinks: followsLinksInFolders(name, argv.slice(1), null),
      walks: walkFilterFor(name, argv.slice(1), null),
      unknownPaths: argv.some((word) => word.startsWith('--files0-from')),
    }
  }
  const known = Object.hasOwn(REFUSED_COMMANDS, name) ? REFUSED_COMMANDS[name] : undefined
  return refuse(known ?? `${name} is not a known read-only command`, name)
}

/** The shell's glob reading and whether any flag the command has is harmless (prefix tables never are). */
function globRules(
  globbing: ShellGlobbing | undefined,
  label: string,
  platform: NodeJS.Platform,
): GlobContext {
  return {
    globbing: globbing ?? UNKNOWN_GLOBBING,
    operandsAreFiles: false,
    flagsAreHarmless: !label.includes(' ') && commandHasNoFileOrWriteFlags(label, platform),
  }
}

function tableFor(name: string, platform: NodeJS.Platform): Table | null {
  const policy = platformPolicy(name, platform) ?? COMMAND_POLICIES.get(name)
  return policy ? { label: name, policy, argsFrom: 1 } : null
}

interface Table {
  label: string
  policy: CommandPolicy
  /** argv index where the command's own arguments start (after `docker inspect`, …). */
  argsFrom: number
}

function evaluateWithTable(
  part: AnalyzedCommand,
  argv: string[],
  offset: number,
  { label, policy, argsFrom }: Table,
  context: PolicyContext,
  name: string,
  globbing: ShellGlobbing | undefined,
): PartVerdict {
  const flags = parseFlags(label, argv.slice(argsFrom), policy)
  if (!flags.ok) return { readOnly: false, reason: flags.reason, name }
  const end = flags.parsed.endOfOptions
  const after = policy.globOperandsAfterDoubleDash && end !== null ? argsFrom + end : null
  const globProblem = findGlobProblem(part, label, offset, after, stringFlags(policy), {
    ...globRules(globbing, label, context.platform),
    operandsAreFiles: policy.globOperandsAfterDoubleDash === true && policy.operandCountMatters !== true,
  })
  if (globProblem) return { readOnly: false, reason: globProblem, name }
  const problem = policy.check?.(flags.parsed, context)
  if (problem) return { readOnly: false, reason: problem, name }
  const posix = checkAsPosixGetopt(label, argv.slice(argsFrom), policy, context)
  if (posix) return { readOnly: false, reason: posix, name }
  const verdict: PartVerdict = {
    readOnly: true,
    reason: `${label} with these flags only reads`,
    name,
    paths: pathOperands(name, argv.slice(argsFrom), flags.parsed, part.redirects),
    followsLinks: followsLinksInFolders(name, argv.slice(argsFrom), flags.parsed),
    walks: walkFilterFor(name, argv.slice(argsFrom), flags.parsed),
  }
  // `sort --files0-from=list` prints the files a (planted) list names, which no check sees.
  const listsFiles = (flag: string) => flag === '--files0-from' || policy.flags[flag] === 'fileList'
  if (flags.parsed.flags.some((flag) => listsFiles(flag.flag))) verdict.unknownPaths = true
  if (name === 'xargs') return withXargsCommand(verdict, flags.parsed)
  return verdict
}

/**
 * The command xargs runs is judged by its own table too: its flags, and the files its own words
 * name (`xargs head /proc/self/environ`). The files its input lines name are known only at run
 * time (`echo ~/.ssh/id_rsa | xargs head`), so a command that reads them asks.
 */
function withXargsCommand(verdict: PartVerdict, xargs: ParsedArgs): PartVerdict {
  const { positionals } = xargs
  const [driven = 'echo', ...words] = positionals
  const policy = COMMAND_POLICIES.get(driven)
  const parsed = policy ? parseFlags(`xargs ${driven}`, words, policy) : null
  if (parsed && !parsed.ok) return { readOnly: false, reason: parsed.reason, name: verdict.name }
  const paths = xargsOpensFiles(positionals) ? pathOperands(driven, words, parsed?.parsed ?? null, []) : []
  return {
    ...verdict,
    paths: [...(verdict.paths ?? []), ...paths],
    unknownPaths: xargsReadsInputPaths(
      positionals,
      xargs.flags.some((flag) => flag.flag === '-I'),
    ),
  }
}

/**
 * GNU getopt permutes (`uniq in -c` counts), but with POSIXLY_CORRECT in the environment, and with
 * BSD getopt on macOS, options end at the first operand, so `-c` becomes uniq's OUTPUT file. The
 * environment the command inherits is not ours to see, so every getopt-style table must also pass
 * when read that way; the reason says so.
 */
function checkAsPosixGetopt(
  label: string,
  args: string[],
  policy: CommandPolicy,
  context: PolicyContext,
): string | null {
  if (policy.optionsEndAtFirstPositional || policy.singleDashLong || policy.oldStyleFirstArg) return null
  // Reading fewer words as flags can only change the answer through the operands.
  if (!policy.check && policy.maxPositionals === undefined) return null
  const posix = parseFlags(label, args, { ...policy, optionsEndAtFirstPositional: true })
  const problem = posix.ok ? policy.check?.(posix.parsed, context) : posix.reason
  return problem
    ? `${problem} when options end at the first operand (POSIXLY_CORRECT set, or BSD getopt)`
    : null
}

const STRING_FLAGS = new WeakMap<CommandPolicy, ReadonlySet<string>>()

/** Long flags whose value is any string: `--include=*.ts` can only become that flag again. */
function stringFlags(policy: CommandPolicy): ReadonlySet<string> {
  let flags = STRING_FLAGS.get(policy)
  if (!flags) {
    flags = new Set(
      Object.entries(policy.flags)
        .filter(([flag, kind]) => flag.startsWith('--') && (kind === 'string' || kind === 'optionalString'))
        .map(([flag]) => flag),
    )
    STRING_FLAGS.set(policy, flags)
  }
  return flags
}

/** `/usr/bin/rg x` is judged as `rg x`; the name is replaced, every other word kept. */
function withStandardBinaryName(argv: string[], platform: NodeJS.Platform): string[] {
  const first = argv[0]
  const base = first === undefined ? null : standardBinaryName(first, platform)
  return base === null ? argv : [base, ...argv.slice(1)]
}

// Commands for which a word only known at run time can change what is printed or read, never
// make them write or run anything: no flag of theirs writes, runs or evaluates.
const EXPANSION_TOLERANT = new Set([
  'echo',
  'cat',
  'ls',
  'wc',
  'head',
  'grep',
  'basename',
  'dirname',
  'realpath',
  'stat',
  'du',
])
const PRINTS_ONLY = new Set(['echo', 'basename', 'dirname'])

/**
 * `echo $HOME`, `wc -l $(git ls-files)`: words expanded at run time are accepted when each one is
 * a plain parameter or a `$(…)` whose inner command is itself read-only (classified one level
 * deeper), and the command is one that no word can turn into a writer. Null when not tolerated.
 */
function tolerateExpansions(
  part: AnalyzedCommand,
  classifyInner: PolicyContext['classifyInner'],
): PartVerdict | null {
  const name = part.wordValues[0]
  if (name === null || name === undefined || !EXPANSION_TOLERANT.has(name)) return null
  if (part.dynamicOutsideWords || part.wordExpansions.length === 0) return null
  if (refuseEnvAssignments(part.envAssignments) || refuseRedirects(part.redirects)) return null
  for (const expansion of part.wordExpansions) {
    if (expansion.kind === 'other') return null
    if (expansion.kind === 'command') {
      const inner = classifyInner?.(expansion.inner)
      if (!inner) return { readOnly: false, reason: `${expansion.text} is nested too deep to classify`, name }
      if (!inner.readOnly)
        return {
          readOnly: false,
          reason: `${expansion.text} runs a command that is not read-only: ${inner.reason}`,
          name,
        }
      if (inner.asks > 0)
        return { readOnly: false, reason: `${expansion.text} reads a place that needs asking first`, name }
    }
  }
  const first = (part.wordExpansions[0] as { text: string }).text
  const staticWords = part.wordValues.slice(1).filter((word): word is string => word !== null)
  return {
    readOnly: true,
    reason: `${name} only reads; ${first} is expanded by the shell first`,
    name,
    paths: PRINTS_ONLY.has(name) ? [] : pathOperands(name, staticWords, null, part.redirects),
    unknownPaths: !PRINTS_ONLY.has(name),
  }
}
