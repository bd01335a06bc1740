import { analyzeCommand } from './analysis/analyze-command'
import type { CommandAnalysis } from './analysis/command-analysis'
import { checkGitRuntimeSafety, type GitRuntimeSafety } from './git-safety/git-runtime-safety'
import { findGitEnvironmentVariable } from './git-safety/git-environment'
import { judgeReadPaths, type PlaceOptions } from './places/read-places'
import { evaluateCommandPart, type PartVerdict } from './readonly/part-policy'
import type { CommandPart, CommandVerdict, ReadConcern } from './verdict'

export interface ClassifyOptions extends PlaceOptions {
  /** The directory the command would run in; git safety is judged from here. */
  cwd: string
  platform?: NodeJS.Platform
  /**
   * The environment the command will inherit, when the caller knows it: GIT_* variables there
   * (GIT_CONFIG_COUNT, GIT_DIR, GIT_EXEC_PATH…) change what git reads and runs.
   */
  env?: Readonly<Record<string, string | undefined>>
}

// git in a line that also changes directory may load hooks and config from the target directory,
// which we did not check; `cd sub && grep x` stays read-only.
const DIRECTORY_CHANGERS = new Set(['cd', 'pushd', 'popd'])

export { analyzeCommand }

// In a partial clone these read only refs and commits git always has, never a missing blob or tree.
const PROMISOR_SAFE_SUBCOMMANDS = new Set([
  'rev-parse',
  'branch',
  'tag',
  'remote',
  'remote show',
  'remote get-url',
  'config',
  'reflog',
  'for-each-ref',
  'show-ref',
  'worktree list',
  'stash list',
  'count-objects',
])

/** The read-only verdict for one command line. Synchronous; never throws, whatever the input. */
export function classifyCommand(command: string, options: ClassifyOptions): CommandVerdict {
  try {
    return classifyAnalysis(analyzeCommand(command), options)
  } catch (error) {
    return {
      command: typeof command === 'string' ? command : String(command),
      parsed: false,
      readOnly: false,
      permissionSafe: false,
      reason: `the command could not be classified: ${error instanceof Error ? error.message : String(error)}`,
      parts: [],
      unsupported: [],
    }
  }
}

function classifyAnalysis(analysis: CommandAnalysis, options: ClassifyOptions): CommandVerdict {
  const base = {
    command: analysis.command,
    parsed: analysis.parsed,
    permissionSafe: analysis.permissionSafe,
    unsupported: analysis.unsupported,
  }
  if (!analysis.parsed) {
    return {
      ...base,
      readOnly: false,
      reason: `the command does not parse: ${analysis.parseError}`,
      parts: [],
    }
  }
  const platform = options.platform ?? process.platform
  const verdicts = analysis.commands.map((part) => evaluateCommandPart(part, platform))
  applyGitRules(verdicts, options)
  const concerns = applyPlaceRules(verdicts, options)
  const parts: CommandPart[] = analysis.commands.map((part, index) => ({
    text: part.text,
    argv: part.argv,
    envAssignments: part.envAssignments,
    redirects: part.redirects,
    connector: part.connector,
    readOnly: (verdicts[index] as PartVerdict).readOnly,
    reason: (verdicts[index] as PartVerdict).reason,
  }))
  const firstUnsupported = analysis.unsupported[0]
  if (firstUnsupported !== undefined) {
    return {
      ...base,
      readOnly: false,
      reason: `${firstUnsupported} is not analysed, so it may do anything`,
      parts,
    }
  }
  if (parts.length === 0) return { ...base, readOnly: false, reason: 'the command is empty', parts }
  const refused = parts.find((part) => !part.readOnly)
  if (refused) return { ...base, readOnly: false, reason: refused.reason, parts }
  const names = [...new Set(verdicts.map((verdict) => verdict.name))].join(', ')
  const reason = parts.length === 1 ? (parts[0] as CommandPart).reason : `every command only reads (${names})`
  return concerns.length > 0
    ? { ...base, readOnly: true, reason, parts, asks: concerns }
    : { ...base, readOnly: true, reason, parts }
}

/** Class 6: a process's environment refuses the part; secrets and outside places ask (deduplicated). */
function applyPlaceRules(verdicts: PartVerdict[], options: ClassifyOptions): ReadConcern[] {
  const concerns = new Map<string, ReadConcern>()
  for (const verdict of verdicts) {
    if (!verdict.readOnly || !verdict.paths || verdict.paths.length === 0) continue
    const judgement = judgeReadPaths(verdict.paths, options)
    if (judgement.refused) {
      verdict.readOnly = false
      verdict.reason = judgement.refused
      continue
    }
    for (const concern of judgement.concerns) concerns.set(`${concern.kind}:${concern.path}`, concern)
  }
  return [...concerns.values()]
}

/** Whole-line git rules: GIT_* in the environment, git next to cd/pushd/popd, the repository around cwd. */
function applyGitRules(verdicts: PartVerdict[], options: ClassifyOptions): void {
  const gitParts = verdicts.filter((verdict) => verdict.name === 'git' && verdict.readOnly)
  if (gitParts.length === 0) return
  const problem = findGitLineProblem(verdicts, options)
  for (const verdict of gitParts) {
    if (problem === null) return
    if (problem === PROMISOR) {
      if (PROMISOR_SAFE_SUBCOMMANDS.has(verdict.gitSubcommand ?? '')) continue
      verdict.reason = `this repository is a partial clone (promisor remote): git ${verdict.gitSubcommand ?? ''} may fetch missing objects over the network`
    } else verdict.reason = problem
    verdict.readOnly = false
  }
}

const PROMISOR = Symbol('partial clone')

function findGitLineProblem(
  verdicts: PartVerdict[],
  options: ClassifyOptions,
): string | typeof PROMISOR | null {
  const variable = findGitEnvironmentVariable(options.env)
  if (variable) return `${variable} in the environment changes which config git reads or what it runs`
  const changer = verdicts.find((verdict) => verdict.name !== null && DIRECTORY_CHANGERS.has(verdict.name))
  if (changer)
    return `git with ${changer.name} in one command may load hooks and config from the other directory`
  const safety: GitRuntimeSafety = checkGitRuntimeSafety(options.cwd)
  if (!safety.safe) return safety.reason
  return safety.promisor ? PROMISOR : null
}
