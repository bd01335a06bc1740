import { homedir } from 'node:os'
import path from 'node:path'
import { analyzeCommandOnce } from './analysis/analysis-memo'
import { analyzeCommand } from './analysis/analyze-command'
import type { CommandAnalysis } from './analysis/command-analysis'
import { GitSafetyPerCall } from './git-runtime-memo'
import type { GitRuntimeSafety } from './git-safety/git-runtime-safety'
import { judgeGitReads } from './git/git-prints'
import { findGitEnvironmentVariable } from './git-safety/git-environment'
import type { CallOptions, ClassifyOptions, RunFolders } from './classify-options'
import { createFsLookups } from './places/fs-lookups'
import { applyPlaceRules, expandHome } from './place-rules'
import { evaluateCommandPart, type PartVerdict } from './readonly/part-policy'
import type { CommandPart, CommandVerdict } from './verdict'

export type { CallOptions, ClassifyOptions, RunFolders } from './classify-options'

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
  // os.homedir() asks the system each time; one answer serves every path of the call.
  const home = options.home ?? homedir()
  const lookups = options.lookups ?? createFsLookups()
  // Object.assign, not `{ ...options, home, … }`: on Node 20 each key added after a spread makes a
  // new hidden class, about a microsecond apiece, which was a tenth of a short line's classify.
  const call: CallOptions = Object.assign({}, options, {
    home,
    // Read once: every path judged in the call compares with SHELLGATE_HOME, and process.env is slow.
    shellgateHome: options.shellgateHome ?? process.env.SHELLGATE_HOME ?? path.join(home, '.shellgate'),
    lookups,
    git: new GitSafetyPerCall(lookups),
  })
  return classifyAtDepth(command, call, 0)
}

/** `$(…)` inside `$(…)` is classified this deep at most; deeper ones are refused. */
const MAX_SUBSTITUTION_DEPTH = 3

function classifyAtDepth(command: string, options: CallOptions, depth: number): CommandVerdict {
  try {
    return classifyAnalysis(analyzeCommandOnce(command), options, depth)
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

function classifyAnalysis(analysis: CommandAnalysis, options: CallOptions, depth: number): CommandVerdict {
  if (!analysis.parsed)
    return verdictOf(analysis, false, `the command does not parse: ${analysis.parseError}`, [])
  const platform = options.platform ?? PLATFORM
  const verdicts: PartVerdict[] = []
  for (const part of analysis.commands) {
    // `cd /etc && echo $(cat passwd)`: the substitution runs where its command runs, after the cd.
    const here = () => runFolders([...verdicts, NOT_A_CD], options).at(-1) ?? null
    const classifyInner = depth < MAX_SUBSTITUTION_DEPTH ? innerClassifier(here, options, depth) : undefined
    verdicts.push(evaluateCommandPart(part, platform, classifyInner, options.globbing))
  }
  const folders = runFolders(verdicts, options)
  applyGitRules(verdicts, folders, options)
  const concerns = applyPlaceRules(analysis.commands, verdicts, folders, options)
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
  if (firstUnsupported !== undefined)
    return verdictOf(analysis, false, `${firstUnsupported} is not analysed, so it may do anything`, parts)
  if (parts.length === 0) return verdictOf(analysis, false, 'the command is empty', parts)
  const refused = parts.find((part) => !part.readOnly)
  if (refused) return verdictOf(analysis, false, refused.reason, parts)
  const reason =
    parts.length === 1
      ? (parts[0] as CommandPart).reason
      : `every command only reads (${[...new Set(verdicts.map((verdict) => verdict.name))].join(', ')})`
  const verdict = verdictOf(analysis, true, reason, parts)
  if (concerns.length > 0) verdict.asks = concerns
  return verdict
}

// Written out field by field: keys added after a spread cost a new hidden class each (Node 20).
function verdictOf(
  analysis: CommandAnalysis,
  readOnly: boolean,
  reason: string,
  parts: CommandPart[],
): CommandVerdict {
  return {
    command: analysis.command,
    parsed: analysis.parsed,
    permissionSafe: analysis.permissionSafe,
    unsupported: analysis.unsupported,
    readOnly,
    reason,
    parts,
  }
}

const PLATFORM = process.platform
const NOT_A_CD: PartVerdict = { readOnly: true, reason: '', name: null }

/** Classifies a `$(…)` one level deeper, in every folder the command holding it may run in. */
function innerClassifier(folders: () => string[] | null, options: CallOptions, depth: number) {
  return (inner: string) => {
    const dirs = folders()
    if (dirs === null)
      return { readOnly: false, reason: 'it runs after a cd to a folder only known at run time', asks: 0 }
    let asks = 0
    let reason = ''
    for (const cwd of dirs) {
      const verdict = classifyAtDepth(inner, { ...options, cwd }, depth + 1)
      if (!verdict.readOnly) return { readOnly: false, reason: verdict.reason, asks: 0 }
      asks += verdict.asks?.length ?? 0
      reason = verdict.reason
    }
    return { readOnly: true, reason, asks }
  }
}

function runFolders(verdicts: PartVerdict[], options: CallOptions): RunFolders {
  const folders: RunFolders = []
  let current: string[] | null = [path.resolve(options.cwd)]
  for (const verdict of verdicts) {
    folders.push(current)
    if (verdict.name === null || !DIRECTORY_CHANGERS.has(verdict.name)) continue
    const target: string[] | null = current === null ? null : cdTargets(verdict, current, options)
    // A cd that fails leaves the shell where it was, so the old folders stay possible.
    current = target === null || current === null ? null : [...new Set([...current, ...target])]
  }
  return folders
}

/** Where `cd DIR` goes from each folder, or null for pushd/popd, `cd -`, `~user`, CDPATH lookups. */
function cdTargets(verdict: PartVerdict, from: string[], options: CallOptions): string[] | null {
  if (verdict.name !== 'cd' || !verdict.readOnly) return null
  const args = (verdict.directoryArgs ?? []).filter((arg) => arg !== '-L' && arg !== '-P')
  if (args.length > 1 || args.some((arg) => arg.startsWith('-'))) return null
  const home = options.home ?? homedir()
  const operand = args[0] ?? '~'
  const expanded =
    operand === '~' ? home : operand.startsWith('~/') ? path.join(home, operand.slice(2)) : operand
  if (expanded.startsWith('~')) return null
  const explicit =
    expanded.startsWith('/') || expanded === '.' || expanded === '..' || /^\.\.?\//.test(expanded)
  const cdpath = (options.env ?? process.env).CDPATH
  if (!explicit && cdpath) return null
  // `cd -P link/..`, or a logical cd whose folder does not exist, goes where the kernel walks
  // (`..` taken after the symlink), so that folder is possible too.
  return from.flatMap((dir) => {
    const written = path.resolve(dir, expanded)
    const raw = expanded.startsWith('/') ? expanded : `${dir}/${expanded}`
    const physical = options.lookups.realpath(raw) ?? raw
    return physical === written || physical === raw ? [written] : [written, physical]
  })
}

/**
 * Whole-line git rules: GIT_* in the environment, and the repository of every folder a git part
 * may run in (after a cd, or with `-C DIR`, which must stay inside the workspace).
 */
function applyGitRules(verdicts: PartVerdict[], folders: RunFolders, options: CallOptions): void {
  const variable = findGitEnvironmentVariable(options.env)
  verdicts.forEach((verdict, index) => {
    if (verdict.name !== 'git' || !verdict.readOnly) return
    const problem = variable
      ? `${variable} in the environment changes which config git reads or what it runs`
      : findGitPartProblem(verdict, folders[index] ?? null, options)
    if (problem === null) return
    verdict.readOnly = false
    verdict.reason = problem
  })
}

function findGitPartProblem(
  verdict: PartVerdict,
  dirs: string[] | null,
  options: CallOptions,
): string | null {
  if (dirs === null)
    return 'git after a cd to a folder only known at run time may load hooks and config from there'
  const directories = verdict.gitDirectories ?? []
  if (directories.length > 0 && options.workspace === undefined)
    return 'git -C runs in another directory, with that repository’s config and hooks'
  // bash expands `git -C ~/x`; `~user` is someone else's home, not followed.
  if (directories.some((word) => word.startsWith('~') && word !== '~' && !word.startsWith('~/')))
    return `git -C ${directories.join(' -C ')} runs in another user's home, with that repository’s config and hooks`
  for (const dir of dirs) {
    const target = directories.reduce((from, next) => path.resolve(from, expandHome(next, options)), dir)
    if (directories.length > 0 && !isInsideWorkspace(target, options))
      return `git -C ${directories.join(' -C ')} leaves the workspace, so its repository’s config and hooks are not the workspace’s`
    const safety: GitRuntimeSafety = options.git.check(target)
    if (!safety.safe) return safety.reason
    if (safety.promisor && !PROMISOR_SAFE_SUBCOMMANDS.has(verdict.gitSubcommand ?? ''))
      return `this repository is a partial clone (promisor remote): git ${verdict.gitSubcommand ?? ''} may fetch missing objects over the network`
    // A .git file, a worktree or alternates may take git's reads outside the workspace: asked about.
    if (safety.repository) {
      if (verdict.walks) verdict.walkRoots ??= [...(verdict.paths ?? [])]
      verdict.paths = [...(verdict.paths ?? []), ...safety.repository.stores]
    }
    // Values with a password are refused; tracked secret files it may print become paths to ask about.
    if (verdict.gitReads && safety.repository) {
      const label = `git ${verdict.gitSubcommand ?? ''}`
      const judged = judgeGitReads(verdict.gitReads, safety.repository, target, label)
      if (judged.problem) return judged.problem
      verdict.paths = [...(verdict.paths ?? []), ...judged.paths]
    }
  }
  return null
}

function isInsideWorkspace(dir: string, options: CallOptions): boolean {
  const realOrSelf = (file: string) => options.lookups.realpath(file) ?? file
  const real = realOrSelf(dir)
  return [options.workspace as string, ...(options.readableFolders ?? [])].some((root) => {
    const base = realOrSelf(path.resolve(options.cwd, root))
    return real === base || real.startsWith(base.endsWith(path.sep) ? base : `${base}${path.sep}`)
  })
}
