import { classifyCommand } from '../../core/bash/classify'
import { effectiveTimeoutMs, resolveTimeoutPolicy } from '../../core/bash/tool/timeout-policy'
import { resolveMaxOutputLength } from '../../core/bash/tool/output-limit'
import { runBashTool } from '../../core/bash/tool/run-bash-tool'
import { sanitizeEntryEnv } from '../../core/env/sanitize-entry'
import { createExecutionPort } from '../../core/exec'
import { resolveShellgateHome } from '../../core/paths'
import {
  decideBashPermission,
  type PermissionDecision,
  ruleSetsFromScoped,
  suggestRules,
  summarizeDecision,
  validateBashRule,
} from '../../core/permissions'
import { openSettingsStore } from '../../core/settings/settings-store'
import { selectShell } from '../../core/shell/discover'
import { createShellSnapshotService } from '../../core/shell/snapshot-service'
import { PermissionModeSchema } from '../../../shared/settings'
import { integerFlag, parseCommandArgs } from '../args'
import type { CliCommand } from '../command'
import { UsageError } from '../usage-error'
import { commandArgument, resolveCwdFlag } from './classify'

/** Exit code when the command was not run (denied, or approval needed): as a shell's "cannot execute". */
export const EXIT_NOT_RUN = 126

const USAGE = [
  'Usage: shellgate exec [--json] [--cwd DIR] [--timeout MS] [--mode build|plan|yolo] [--approve] -- <command>',
  '',
  '  The Bash tool path, headless: classify, decide with the mode and your rules, run in your shell.',
  '',
  '  --cwd DIR     where the command runs; also the workspace whose .shellgate/settings.json rules apply',
  '  --timeout MS  default 120000 (BASH_DEFAULT_TIMEOUT_MS), at most 600000 (BASH_MAX_TIMEOUT_MS); 0 = default',
  '  --mode M      build (default from settings): read-only runs, the rest asks; plan: the rest is denied;',
  '                yolo: everything runs (deny and ask rules still apply)',
  '  --approve     approve what would ask; never overrides a deny',
  '  --background  needs the background task registry of the app (shellgate serve or the desktop app)',
  '  --json        print {status, exitCode, exitSignal, stdout, stderr, truncated, outputPath?,',
  '                durationMs, decision, content}',
  '',
  `Exit code: the command's own; ${EXIT_NOT_RUN} when it was not run (the decision says why); 2 for bad input.`,
].join('\n')

export const execCommand: CliCommand = {
  summary: 'run a command through the Bash tool path: policy, approval, executor',
  usage: USAGE,
  async run(argv, io) {
    const { flags, positionals, rest } = parseCommandArgs('exec', argv, {
      json: { type: 'boolean' },
      cwd: { type: 'string' },
      timeout: { type: 'string' },
      background: { type: 'boolean' },
      mode: { type: 'string' },
      approve: { type: 'boolean' },
    })
    const command = commandArgument('exec', positionals, rest)
    if (command.trim() === '') throw new UsageError('shellgate exec: the command is empty')
    if (flags.background) {
      throw new UsageError(
        'shellgate exec: --background needs the background task registry, which lives in the app; use shellgate serve or the desktop app, or run without --background',
      )
    }
    const requestedTimeout = integerFlag('exec', 'timeout', flags.timeout)
    const mode = flags.mode === undefined ? undefined : PermissionModeSchema.safeParse(flags.mode)
    if (mode && !mode.success)
      throw new UsageError(`shellgate exec: --mode must be build, plan or yolo, got "${String(flags.mode)}"`)
    const cwd = resolveCwdFlag('exec', flags.cwd, io.cwd)
    const home = resolveShellgateHome(io.env)
    const platform = process.platform

    const store = await openSettingsStore({ home, workspace: cwd, validateRule: validateBashRule })
    const [warning] = store.warnings()
    if (warning) {
      // Its deny rules would silently be gone; refuse rather than run with defaults.
      throw new UsageError(
        `shellgate exec: ${warning.file} is unusable (${warning.reason}); fix it before running commands`,
      )
    }
    const user = store.user()
    const verdict = classifyCommand(command, { cwd, platform })
    const decision = decideBashPermission({
      verdict,
      mode: mode?.data ?? user.permissions.mode,
      ruleSets: ruleSetsFromScoped(store.rules()),
    })
    const decisionJson = {
      ...summarizeDecision(decision),
      nearMiss: decision.nearMiss,
      suggestedRules: suggestRules(verdict),
    }
    const approved = decision.outcome === 'allow' || (decision.outcome === 'ask' && flags.approve === true)
    if (!approved) {
      report(io, flags.json === true, notRun(decision), decisionJson)
      return EXIT_NOT_RUN
    }

    const env = sanitizeEntryEnv(io.env, platform)
    const limits = user.limits
    const timeoutMs = effectiveTimeoutMs(
      requestedTimeout,
      resolveTimeoutPolicy(io.env, { defaultMs: limits.defaultTimeoutMs, maxMs: limits.maxTimeoutMs }),
    )
    const snapshots = createShellSnapshotService({ dataDir: home, platform })
    try {
      const run = await runBashTool({
        command,
        verdict,
        cwd,
        workspace: cwd,
        timeoutMs,
        inlineLimit: resolveMaxOutputLength(io.env, limits.maxOutputLength),
        dataDir: home,
        runtimeEnv: env,
        network: user.network,
        platform,
        shell: selectShell({ platform, env, settings: user.shell }),
        snapshots,
        port: createExecutionPort({ platform }),
        signal: io.signal,
      })
      const { result, output } = run
      const content = run.content.blocks
        .map((block) => (block.type === 'text' ? block.text : `[image ${block.mediaType}]`))
        .join('\n')
      report(
        io,
        flags.json === true,
        {
          status: result.status,
          exitCode: result.exitCode,
          exitSignal: result.exitSignal,
          // Bash file mode: both streams went to one file, so stdout holds them interleaved as printed.
          stdout: output.head,
          stderr: run.notes.length > 0 ? `${run.notes.join('\n')}\n` : '',
          truncated: result.truncated || output.persistedPath !== null,
          ...(output.persistedPath ? { outputPath: output.persistedPath } : {}),
          durationMs: Math.round(result.timings.totalMs),
          isError: run.content.isError,
          content,
        },
        decisionJson,
      )
      return exitCodeOf(result.status, result.exitCode)
    } finally {
      await snapshots.close()
    }
  },
}

/** The `--json` shape of DESIGN.md (plus isError and the model-facing content when it ran). */
interface ExecJson {
  status: string
  exitCode: number | null
  exitSignal: string | null
  stdout: string
  stderr: string
  truncated: boolean
  outputPath?: string
  durationMs: number
  isError?: boolean
  content?: string
}

type DecisionJson = ReturnType<typeof summarizeDecision> & {
  nearMiss: PermissionDecision['nearMiss']
  suggestedRules: string[]
}

function notRun(decision: PermissionDecision): ExecJson {
  return {
    status: decision.outcome === 'deny' ? 'denied' : 'approval_required',
    exitCode: null,
    exitSignal: null,
    stdout: '',
    stderr: '',
    truncated: false,
    durationMs: 0,
  }
}

function report(
  io: { stdout(text: string): void; stderr(text: string): void },
  json: boolean,
  result: ExecJson,
  decision: DecisionJson,
): void {
  if (json) {
    io.stdout(`${JSON.stringify({ ...result, decision })}\n`)
    return
  }
  if (result.status === 'denied' || result.status === 'approval_required') {
    io.stderr(`shellgate exec: not run (${decision.outcome}): ${decision.reason}\n`)
    if (decision.nearMiss) io.stderr(`  almost matched: ${decision.nearMiss.explanation}\n`)
    if (decision.outcome === 'ask') {
      io.stderr(`  run again with --approve, or allow it with: ${decision.suggestedRules.join(', ')}\n`)
    }
    return
  }
  io.stdout(result.stdout)
  if (result.stderr) io.stderr(result.stderr)
  if (result.outputPath)
    io.stderr(`shellgate exec: output over the inline limit; all of it is in ${result.outputPath}\n`)
  if (result.status !== 'completed' && result.status !== 'failed')
    io.stderr(`shellgate exec: ${result.status}\n`)
}

/** The command's exit code; the conventional shell codes when it has none. */
function exitCodeOf(status: string, exitCode: number | null): number {
  if (exitCode !== null) return exitCode
  if (status === 'timed_out') return 124
  if (status === 'cancelled') return 130
  if (status === 'spawn_error') return 127
  return 1
}
