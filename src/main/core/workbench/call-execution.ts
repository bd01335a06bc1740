import type { BashCall } from '../../../shared/ipc/domains/bash'
import { settleOutputFile } from '../bash/tool/output-file'
import type { BashToolInput } from '../bash/tool/input-schema'
import { taskEnd } from '../bash/tool/run-bash-background'
import { effectiveTimeoutMs, resolveTimeoutPolicy } from '../bash/tool/timeout-policy'
import type { CommandVerdict } from '../bash/verdict'
import type { EnvRecord } from '../env/env-keys'
import type {
  ExecutionHooks,
  ExecutionPort,
  ExecutionResult,
  FileIdentity,
  ProgressSample,
} from '../exec/types'
import type { SandboxService } from '../sandbox/sandbox-service'
import type { SettingsStore } from '../settings/settings-store'
import { prepareBashToolRequest } from '../shell/bash-tool-request'
import { readCapturedCwd } from '../shell/cwd-capture'
import type { ShellSnapshotService } from '../shell/snapshot-service'
import { type BackgroundReason, formatBackgroundedContent } from '../tasks/background-content'
import { runWithBackgroundLifecycle } from '../tasks/background-lifecycle'
import { isAutoBackgroundEligible } from '../tasks/background-policy'
import { prepareTaskOutputPath } from '../tasks/task-output-path'
import type { TaskRegistry } from '../tasks/task-registry'
import { parseWaitFor } from '../tasks/wait-condition'
import { DEFAULT_TERMINAL_COLS, DEFAULT_TERMINAL_ROWS } from '../exec/terminal-types'
import { answerAfterStart } from './terminal-answer'
import { type CallSandbox, prepareCallSandbox } from './call-sandbox'
import { foregroundContent } from './foreground-content'
import { type CallNetworkDeps, callNetwork } from './network-approval'
import { answerTimeLeft, type InFlightCall } from './in-flight-call'
import type { LiveSession } from './session-service'
import type { TicketCall } from './ticket-call'

export interface CallExecutionDeps {
  settings: SettingsStore
  tasks: TaskRegistry
  port: ExecutionPort
  snapshots: ShellSnapshotService | null
  runtimeEnv: () => Promise<EnvRecord>
  platform: NodeJS.Platform
  dataDir: string
  outputRoot: string
  onProgress: (progress: { call: BashCall; sample: ProgressSample }) => void
  sandbox?: SandboxService
  /** Network rules, ports and the person to ask about a domain (issue 19.3). */
  network?: CallNetworkDeps
}

/**
 * The run half of a call, once it may run: the shell request, the sandbox, then the foreground
 * with the background lifecycle beside it (seed 003), and what the model sees at the end.
 */
export async function executeCall(
  deps: CallExecutionDeps,
  session: LiveSession,
  call: BashCall,
  input: BashToolInput,
  verdict: CommandVerdict,
  entry: InFlightCall,
  sandboxChoice: { ranWithoutAsking: boolean; unsandboxedByPerson: boolean },
  ticket?: TicketCall,
): Promise<{ call: BashCall; sandbox: CallSandbox | null }> {
  const { signal } = entry.controller
  const userSettings = deps.settings.user()
  const limits = userSettings.limits
  const runtimeEnv = await deps.runtimeEnv()
  const policy = resolveTimeoutPolicy(runtimeEnv, {
    defaultMs: limits.defaultTimeoutMs,
    maxMs: limits.maxTimeoutMs,
  })
  const timeoutMs = effectiveTimeoutMs(input.timeout, policy)
  const outputPath = await prepareTaskOutputPath(deps.outputRoot, session.record.id, call.id)
  const prepared = await prepareBashToolRequest({
    shell: session.record.shell,
    snapshots: deps.snapshots,
    runtimeEnv,
    network: userSettings.network,
    platform: deps.platform,
    dataDir: deps.dataDir,
    command: input.command,
    cwd: ticket?.cwd ?? session.cwd,
    passThrough: userSettings.environment.passThrough,
    // Asked-and-approved calls keep 'ask' as their decision's outcome.
    autoRun: call.decision?.outcome === 'allow' && verdict.readOnly,
    terminal: input.tty === true,
  })
  const sandbox = deps.sandbox
    ? await prepareCallSandbox(deps.sandbox, {
        settings: userSettings.sandbox,
        workspace: session.record.workspace,
        cwd: prepared.request.cwd,
        searchPath: prepared.request.env.PATH ?? '',
        readableFolders: userSettings.readPlaces.readableFolders,
        ...sandboxChoice,
        snapshotPath: prepared.snapshot?.status === 'ready' ? prepared.snapshot.path : null,
        cwdFile: prepared.cwdFile,
        ...(deps.network ? { network: () => callNetwork(deps.network!, session, call) } : {}),
      })
    : null
  if (sandbox?.kind === 'refuse') {
    const refused: BashCall = { ...call, status: 'denied', content: sandbox.content, isError: true }
    return { call: refused, sandbox: null }
  }
  const request = {
    ...prepared.request,
    ...(sandbox?.sandbox
      ? { sandbox: input.tty ? { ...sandbox.sandbox, privateTerminal: true } : sandbox.sandbox }
      : {}),
    ...(input.tty ? { terminal: { cols: DEFAULT_TERMINAL_COLS, rows: DEFAULT_TERMINAL_ROWS } } : {}),
  }
  const sandboxed = sandbox ? { sandbox: sandbox.profile } : {}
  try {
    const started = Date.now()
    let outputIdentity: FileIdentity | undefined
    const hooks: ExecutionHooks = {
      onOutputFile: (file) => {
        outputIdentity = file.identity
        ticket?.onOutputFile(file)
      },
      onProgress: (sample: ProgressSample) => deps.onProgress({ call, sample }),
    }
    const finish = async (result: ExecutionResult) => {
      const done = await foregroundContent({
        call: { ...call, ...sandboxed },
        result,
        verdict,
        session,
        cwdFile: prepared.cwdFile,
        outputPath,
        input,
        inlineLimit: limits.maxOutputLength,
        workspace: session.record.workspace,
        platform: deps.platform,
        started,
        ...(ticket ? { pinnedCwd: ticket } : {}),
      })
      return { call: sandbox ? await sandbox.annotate(done) : done, sandbox }
    }
    const common = {
      sessionId: session.record.id,
      command: input.command,
      outputPath,
      hooks,
      signal,
      backgroundNow: entry.backgroundNow.signal,
      taskId: call.id,
      ...(input.description ? { description: input.description } : {}),
      ...(sandbox?.sandbox?.egress
        ? { sandboxPorts: [sandbox.sandbox.egress.proxyPort, ...sandbox.sandbox.egress.allowedPorts] }
        : {}),
    }

    const leadingSleep = !input.run_in_background && !isAutoBackgroundEligible(input.command)
    const answerBy = answerTimeLeft(entry)
    if (leadingSleep && timeoutMs <= answerBy) {
      entry.phase = 'foreground_only'
    }
    if (entry.phase === 'foreground_only') {
      // A leading `sleep` that outlives its timeout is meant to die, not to become a task.
      const result = await deps.port.execute(
        { ...request, timeoutMs, signal, output: { mode: 'file', outputPath } },
        hooks,
      )
      return finish(result)
    }
    // The caller's clock shortens the foreground: min(its timeout, the answer deadline).
    const deadlineMs = Math.max(1, Math.min(timeoutMs, answerBy))
    const outcome = await runWithBackgroundLifecycle(
      deps.port,
      deps.tasks,
      request,
      input.run_in_background ? { mode: 'explicit' } : { mode: 'auto_on_timeout', deadlineMs },
      common,
    )
    if (outcome.kind === 'foreground') {
      return finish(outcome.result)
    }
    const reason: BackgroundReason = input.run_in_background
      ? 'explicit'
      : entry.backgroundNow.signal.aborted
        ? 'user'
        : answerBy < timeoutMs
          ? 'answer_deadline'
          : 'timeout'
    entry.phase = 'background'
    if (leadingSleep) {
      // A leading sleep backgrounded only for the caller's clock still ends at its own timeout.
      const stopAt = setTimeout(
        () => void deps.tasks.stop(outcome.task.taskId, 'caller'),
        timeoutMs - deadlineMs,
      )
      stopAt.unref()
    }
    const output = await settleOutputFile(outputPath, 0, true, outputIdentity, deps.platform)
    // The task's final directory is not used, but its capture file must not outlive it (exec/cwd).
    const { cwdFile } = prepared
    if (cwdFile) void taskEnd(deps.tasks, outcome.task.taskId).finally(() => readCapturedCwd(cwdFile))
    // A terminal run or a wait_for answers once it is ready, quiet, over, or at its timeout (issue 23.3).
    const waited =
      input.tty || input.wait_for !== undefined
        ? await answerAfterStart(deps.tasks, outcome.task.taskId, {
            condition: input.wait_for === undefined ? null : parseWaitFor(input.wait_for),
            timeoutMs: Math.max(0, Math.min(timeoutMs, answerTimeLeft(entry))),
            platform: deps.platform,
            signal,
          })
        : null
    const backgroundedCall: BashCall = {
      ...call,
      ...sandboxed,
      status: 'backgrounded',
      durationMs: Date.now() - started,
      totalBytes: waited
        ? ((await deps.tasks.info(outcome.task.taskId))?.bytes ?? output.totalBytes)
        : output.totalBytes,
      content: waited ? waited.text : formatBackgroundedContent(outcome.task.taskId, outputPath, reason),
      outputPath,
      ...(outputIdentity ? { outputIdentity } : {}),
      taskId: outcome.task.taskId,
    }
    return { call: backgroundedCall, sandbox }
  } catch (error) {
    // Nothing ran (or it failed to start): this run's proxy must not outlive it.
    await sandbox?.release()
    throw error
  }
}
