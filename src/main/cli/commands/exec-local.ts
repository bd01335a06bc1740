import { homedir } from 'node:os'
import { classifyCommand } from '../../core/bash/classify'
import { effectiveTimeoutMs, resolveTimeoutPolicy } from '../../core/bash/tool/timeout-policy'
import { resolveMaxOutputLength } from '../../core/bash/tool/output-limit'
import { type BackgroundBashOptions, startBashBackground } from '../../core/bash/tool/run-bash-background'
import { runBashTool } from '../../core/bash/tool/run-bash-tool'
import { sanitizeEntryEnv } from '../../core/env/sanitize-entry'
import { createExecutionPort } from '../../core/exec'
import { decideBashPermission, suggestRules, summarizeDecision } from '../../core/permissions'
import { readCommandSettings, SettingsFileError } from '../../core/permissions/settings-files'
import { applyWorkspaceTrust, loadWorkspaceTrust } from '../../core/permissions/workspace-trust'
import { createTaskRegistry } from '../../core/tasks/task-registry'
import { createAuditLog } from '../../core/settings/audit-log'
import { decidedByOf } from '../../core/workbench/decision-record'
import { detectSandboxBackend } from '../../core/workbench/sandbox-probe'
import { selectShell } from '../../core/shell/discover'
import { createShellSnapshotService } from '../../core/shell/snapshot-service'
import { createSandboxService, type PreparedSandbox } from '../../core/sandbox/sandbox-service'
import type { PermissionMode } from '../../../shared/settings'
import type { CliIo } from '../command'
import { UsageError } from '../usage-error'
import { type DecisionJson, EXIT_NOT_RUN, type ExecJson, exitCodeOf, notRun, report } from './exec-report'

/** `shellgate exec` with no hub running: decided and run here, never approved (see exec.ts). */
export async function execLocally(input: {
  command: string
  cwd: string
  home: string
  platform: NodeJS.Platform
  mode: PermissionMode | undefined
  requestedTimeout: number | undefined
  background: boolean
  json: boolean
  io: CliIo
}): Promise<number> {
  const { command, cwd, home, platform, requestedTimeout, io } = input
  const flags = { json: input.json, background: input.background }
  // Read-only and strict: an unusable settings file refuses the run every time (its deny rules
  // would otherwise be silently gone), and nothing is moved or rewritten.
  const settings = await readCommandSettings(home, cwd).catch((error: unknown) => {
    if (error instanceof SettingsFileError) throw new UsageError(`shellgate exec: ${error.message}`)
    throw error
  })
  const user = settings.user
  // The workspace of a headless exec is its --cwd: reads that leave it ask, as in the app.
  const verdict = classifyCommand(command, {
    cwd,
    platform,
    workspace: cwd,
    readableFolders: user.readPlaces.readableFolders,
    shellgateHome: home,
  })
  // A repository's own allow rules count only once the user has accepted them (see workspace-trust).
  const trust = await loadWorkspaceTrust(home)
  const trusted = applyWorkspaceTrust(
    settings.ruleSets,
    settings.workspaceFile,
    trust.trustedRules(cwd, settings.workspace.permissions.allow),
  )
  const decision = decideBashPermission({
    verdict,
    mode: input.mode ?? user.permissions.mode,
    ruleSets: trusted.ruleSets,
    readsOutsideWorkspace: user.readPlaces.readsOutsideWorkspace,
  })
  const decisionJson = {
    ...summarizeDecision(decision),
    nearMiss: decision.nearMiss,
    suggestedRules: suggestRules(verdict),
  }
  const shell = selectShell({ platform, env: sanitizeEntryEnv(io.env, platform), settings: user.shell })
  // The same audit log as the app: one line per command, whether it ran or not.
  const auditLog = createAuditLog({ home })
  // issue 12: read-only for what runs without asking, workspace-write for --approve and rules.
  let prepared: PreparedSandbox | null = null
  const port = createExecutionPort({ platform })
  const sandboxService = createSandboxService({
    platform,
    home: io.env.HOME ?? homedir(),
    dataDir: home,
    detect: () => detectSandboxBackend(port, { platform }),
  })
  const sandbox = async (files: { snapshotPath: string | null; cwdFile: string }) => {
    prepared = await sandboxService.prepare({
      settings: user.sandbox,
      workspace: cwd,
      cwd,
      searchPath: env.PATH ?? '',
      readableFolders: user.readPlaces.readableFolders,
      ranWithoutAsking: decision.outcome === 'allow' && decidedByOf(decision) === 'read_only',
      unsandboxedByPerson: false,
      readableFiles: [files.snapshotPath],
      writableFiles: [files.cwdFile],
    })
    if (prepared.kind === 'refuse') throw new SandboxRefusal(prepared.reason)
    return prepared.sandbox
  }
  const audit = async (result: ExecJson) => {
    // Without a hub nobody approves: what runs here is what the mode and rules allow.
    const approved = decision.outcome === 'allow'
    await auditLog
      .append({
        session: 'cli',
        command,
        cwd,
        shell: shell.path,
        verdict: approved ? 'allow' : 'deny',
        decidedBy: decision.outcome === 'ask' ? 'cancelled' : decidedByOf(decision),
        rule: decisionJson.rule,
        ruleFile: decisionJson.ruleFile,
        approvedBy: null,
        status: result.status === 'approval_required' ? 'denied' : (result.status as 'completed'),
        exitCode: result.exitCode,
        durationMs: result.durationMs,
        bytes: result.bytes ?? null,
        ...(result.taskId ? { taskId: result.taskId } : {}),
        ...(prepared?.kind === 'run' ? { sandbox: prepared.profile } : {}),
      })
      .catch((error: unknown) =>
        io.stderr(`shellgate exec: the audit log could not be written: ${String(error)}\n`),
      )
  }
  if (decision.outcome === 'deny') {
    await audit(notRun(decision))
    report(io, flags.json === true, notRun(decision), decisionJson)
    return EXIT_NOT_RUN
  }
  if (decision.outcome === 'ask') {
    // No hub runs (it would have taken the command above), so nobody can approve it now.
    const reason = 'it needs approval and Shellgate is not running, so nobody can approve it'
    await audit(notRun(decision))
    report(io, flags.json === true, notRun(decision), { ...decisionJson, reason })
    return EXIT_NOT_RUN
  }

  const env = sanitizeEntryEnv(io.env, platform)
  const limits = user.limits
  const timeoutMs = effectiveTimeoutMs(
    requestedTimeout,
    resolveTimeoutPolicy(io.env, { defaultMs: limits.defaultTimeoutMs, maxMs: limits.maxTimeoutMs }),
  )
  const snapshots = createShellSnapshotService({ dataDir: home, platform })
  const common = {
    command,
    cwd,
    dataDir: home,
    runtimeEnv: env,
    network: user.network,
    platform,
    shell,
    snapshots,
    port,
    sandbox,
    passThrough: user.environment.passThrough,
    autoRun: decision.outcome === 'allow' && verdict.readOnly,
  }
  try {
    if (flags.background) return await runInBackground(common, io, flags.json === true, decisionJson, audit)
    const run = await runBashTool({
      ...common,
      verdict,
      workspace: cwd,
      timeoutMs,
      inlineLimit: resolveMaxOutputLength(io.env, limits.maxOutputLength),
      signal: io.signal,
    })
    const { result, output } = run
    const ranIn = prepared as PreparedSandbox | null
    const sandboxLines =
      ranIn?.kind === 'run'
        ? [
            ...ranIn.notes.map((note) => `Sandbox: ${note}`),
            ...[ranIn.explain({ exitCode: result.exitCode, output: output.head })].filter(
              (line): line is string => line !== null,
            ),
          ]
        : []
    run.notes.push(...sandboxLines)
    const content = [
      run.content.blocks
        .map((block) => (block.type === 'text' ? block.text : `[image ${block.mediaType}]`))
        .join('\n'),
      ...sandboxLines,
    ].join('\n')
    const ran: ExecJson = {
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
    }
    await audit({ ...ran, bytes: output.totalBytes })
    report(io, flags.json === true, ran, decisionJson)
    return exitCodeOf(result.status, result.exitCode)
  } catch (error) {
    if (!(error instanceof SandboxRefusal)) throw error
    const refused: ExecJson = { ...notRun(decision), status: 'denied', stderr: `${error.message}\n` }
    await audit(refused)
    if (flags.json === true) report(io, true, refused, decisionJson)
    else io.stderr(`shellgate exec: not run: ${error.message}\n`)
    return EXIT_NOT_RUN
  } finally {
    await snapshots.close()
    const ranIn = prepared as PreparedSandbox | null
    if (ranIn?.kind === 'run') await ranIn.release()
  }
}

/** The sandbox refused the run (strict mode with no backend): reported as "not run", never run unsandboxed. */
class SandboxRefusal extends Error {}

/**
 * --background: the task registry owns the process from its first moment (no timeout, output in its
 * file). The JSON with the task id is printed at once; the CLI then stays until the task ends,
 * because the registry lives in this process and a task must not outlive its owner unseen. Ctrl+C
 * stops the task.
 */
async function runInBackground(
  options: Omit<BackgroundBashOptions, 'registry' | 'sessionId'>,
  io: CliIo,
  json: boolean,
  decision: DecisionJson,
  audit: (result: ExecJson) => Promise<void>,
): Promise<number> {
  const registry = createTaskRegistry()
  try {
    const started = await startBashBackground({ ...options, registry, sessionId: 'cli' })
    if (started.kind === 'foreground') {
      const { result } = started
      const base = { exitCode: result.exitCode, exitSignal: result.exitSignal, stdout: '', truncated: false }
      const failed: ExecJson = {
        ...base,
        status: result.status,
        stderr: `${result.errorMessage ?? ''}\n`,
        durationMs: 0,
      }
      await audit(failed)
      report(io, json, failed, decision)
      return exitCodeOf(result.status, result.exitCode)
    }
    const backgrounded: ExecJson = {
      status: 'backgrounded',
      exitCode: null,
      exitSignal: null,
      stdout: '',
      stderr: '',
      truncated: false,
      outputPath: started.outputPath,
      durationMs: 0,
      taskId: started.taskId,
    }
    await audit(backgrounded)
    if (json) report(io, json, backgrounded, decision)
    else
      io.stderr(
        `shellgate exec: background task ${started.taskId} running; output in ${started.outputPath}\n`,
      )
    const stop = () => void registry.stop(started.taskId, 'user')
    io.signal.addEventListener('abort', stop, { once: true })
    // Ctrl+C may have come while the task was being set up (the sandbox is prepared first).
    if (io.signal.aborted) stop()
    const task = await started.done
    io.signal.removeEventListener('abort', stop)
    return exitCodeOf(task.status, task.exitCode)
  } finally {
    await registry.dispose()
  }
}

export type ExecLocallyOptions = Parameters<typeof execLocally>[0]
