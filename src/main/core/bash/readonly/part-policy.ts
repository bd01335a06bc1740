import type { AnalyzedCommand } from '../analysis/command-analysis'
import { evaluateGitArgv } from '../git/git-policy'
import { findUncPath, isPathQualified, standardBinaryName, stripTransparentWrappers } from './command-name'
import { evaluateDirectArgv } from './direct-argv'
import { EVERY_NAME } from '../places/found-links'
import type { PartVerdict } from './part-verdict'
import { evaluateEnvironmentReader } from './environment-readers'
import { evaluateFindExec } from './find-exec'
import { gitWalkFilter, unionOfWalks, walkFilterFor } from './walk-filter'
import { describeDynamicPart } from './dynamic-reason'
import { refuseEnvAssignments } from './env-allowlist'
import { parseFlags } from './flag-parser'
import { readBothWays } from './getopt-readings'
import {
  followsLinksInFolders,
  walksIntoLinkedFolders,
  gitReadPaths,
  pathOperands,
  xargsOpensFiles,
  xargsReadsInputPaths,
} from './path-operands'
import { type ShellGlobbing, UNKNOWN_GLOBBING } from '../places/shell-globbing'
import { commandHasNoFileOrWriteFlags } from './flag-facts'
import { findGlobProblem, type GlobContext } from './glob-policy'
import type { CommandPolicy, ParsedArgs, PolicyContext } from './flag-types'
import { COMMAND_POLICIES } from './policy-tables'
import { findPrefixPolicy } from './prefix-commands'
import { platformPolicy } from './tables-platform'
import { refuseRedirects } from './redirect-policy'
import { REFUSED_COMMANDS } from './refused-commands'
import { evaluateVersionQuery, findProjectReadingQuery } from './version-query'
import { findKnownWriteOption } from './write-options'

export type { PartVerdict } from './part-verdict'

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
  const projectReading = findProjectReadingQuery(argv)
  if (projectReading) return refuse(projectReading, name)
  const direct = evaluateDirectArgv(argv)
  // Field by field: a key added after a spread costs a new hidden class on Node 20.
  if (direct) return { readOnly: direct.readOnly, reason: direct.reason, name }
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
    const walks = gitWalkFilter(git.subcommand, git.parsed, (git.reads?.trackedContents ?? null) !== null)
    // `diff --no-index` compares exactly its two operands (walking those that are folders);
    // `grep --no-index`/`--untracked` searches the folder it runs in.
    const diffOperands = git.subcommand === 'diff' ? (git.parsed?.positionals ?? []) : []
    return {
      readOnly: true,
      reason: git.reason,
      name,
      gitSubcommand: git.subcommand,
      gitDirectories: git.directories ?? [],
      paths: [
        ...pathOperands('git', [], null, part.redirects),
        ...gitReadPaths(git),
        ...(git.parsed?.readFiles ?? []),
        ...(git.reads?.objectPaths ?? []),
        '.',
      ],
      walks,
      ...(walks && diffOperands.length > 0 ? { walkRoots: diffOperands } : {}),
      gitReads: git.reads,
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
  const version = evaluateVersionQuery(argv, platform)
  if (version) return { readOnly: version.readOnly, reason: version.reason, name, paths: [] }
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
  const args = argv.slice(argsFrom)
  const flags = readBothWays(label, args, policy, context)
  if (!flags.ok) return { readOnly: false, reason: flags.reason, name }
  const end = flags.parsed.endOfOptions
  const after = policy.globOperandsAfterDoubleDash && end !== null ? argsFrom + end : null
  const globProblem = findGlobProblem(part, label, offset, after, stringFlags(policy), {
    ...globRules(globbing, label, context.platform),
    operandsAreFiles: policy.globOperandsAfterDoubleDash === true && policy.operandCountMatters !== true,
  })
  if (globProblem) return { readOnly: false, reason: globProblem, name }
  const readings = flags.posix ? [flags.parsed, flags.posix] : [flags.parsed]
  const verdict: PartVerdict = {
    readOnly: true,
    reason: `${label} with these flags only reads`,
    name,
    paths: readings.flatMap((parsed) => [
      ...pathOperands(name, args, parsed, part.redirects),
      ...parsed.readFiles,
    ]),
    followsLinks: readings.some((parsed) => followsLinksInFolders(name, args, parsed)),
    ...(readings.some((parsed) => walksIntoLinkedFolders(name, parsed))
      ? { foundLinks: { filter: EVERY_NAME, intoFolders: true } }
      : {}),
    // Every reading's walk at once: the POSIX one ends options sooner, so it has fewer filters,
    // but it also drops a later flag that widens the walk (`rg KEY --hidden` reads `.env`).
    walks: unionOfWalks(readings.map((parsed) => walkFilterFor(name, args, parsed))),
    // `sort --files0-from=list` prints the files a (planted) list names, which no check sees.
    unknownPaths: readings.some((parsed) => parsed.runTimeFiles || listsFiles(policy, parsed)),
  }
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
  const replaces = xargs.flags.some(
    (flag) => flag.flag === '-I' || flag.flag === '-i' || flag.flag === '--replace',
  )
  const [driven = 'echo', ...words] = positionals
  const policy = COMMAND_POLICIES.get(driven)
  const parsed = policy ? parseFlags(`xargs ${driven}`, words, policy) : null
  if (parsed && !parsed.ok) return { readOnly: false, reason: parsed.reason, name: verdict.name }
  const drivenArgs = parsed?.ok ? parsed.parsed : null
  const paths = xargsOpensFiles(positionals)
    ? [...pathOperands(driven, words, drivenArgs, []), ...(drivenArgs?.readFiles ?? [])]
    : []
  return {
    ...verdict,
    paths: [...(verdict.paths ?? []), ...paths],
    unknownPaths:
      xargsReadsInputPaths(positionals, replaces) ||
      (drivenArgs?.runTimeFiles ?? false) ||
      verdict.unknownPaths,
  }
}

/** A flag whose value names a list of files (`--files0-from`, tar -T): the files are known at run time. */
function listsFiles(policy: CommandPolicy, parsed: ParsedArgs): boolean {
  return parsed.flags.some((flag) => flag.flag === '--files0-from' || policy.flags[flag.flag] === 'fileList')
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
