import { randomUUID } from 'node:crypto'
import type { BashCall } from '../../../shared/ipc/domains/bash'
import { classifyCommand } from '../bash/classify'
import { settleOutputFile } from '../bash/tool/output-file'
import type { CommandVerdict } from '../bash/verdict'
import { type BashToolInput, BashToolInputSchema } from '../bash/tool/input-schema'
import { effectiveTimeoutMs, resolveTimeoutPolicy } from '../bash/tool/timeout-policy'
import type { EnvRecord } from '../env/env-keys'
import type { ExecutionPort, ExecutionResult, ProgressSample } from '../exec/types'
import type { ApprovalBroker } from '../permissions/approval-broker'
import { decideBashPermission } from '../permissions/decide-permission'
import { ruleSetsFromScoped } from '../permissions/settings-rule-sets'
import { applyWorkspaceTrust, type WorkspaceTrust } from '../permissions/workspace-trust'
import { suggestRules } from '../permissions/suggest-rules'
import type { AuditStatus } from '../../../shared/audit'
import type { AuditLog } from '../settings/audit-log'
import type { SettingsStore } from '../settings/settings-store'
import { prepareBashToolRequest } from '../shell/bash-tool-request'
import type { ShellSnapshotService } from '../shell/snapshot-service'
import { formatBackgroundedContent } from '../tasks/background-content'
import { runWithBackgroundLifecycle } from '../tasks/background-lifecycle'
import { isAutoBackgroundEligible } from '../tasks/background-policy'
import type { TaskRegistry } from '../tasks/task-registry'
import { prepareTaskOutputPath } from '../tasks/task-output-path'
import { approvalWhy, decidedByOf, ruleAllowsCommand } from './decision-record'
import { foregroundContent } from './foreground-content'
import type { LiveSession, SessionService } from './session-service'
import { WorkbenchError } from './workbench-error'

export interface BashCallServiceOptions {
  sessions: SessionService
  settings: SettingsStore
  approvals: ApprovalBroker
  trust: WorkspaceTrust
  audit: AuditLog
  tasks: TaskRegistry
  port: ExecutionPort
  snapshots: ShellSnapshotService | null
  runtimeEnv: () => Promise<EnvRecord>
  platform: NodeJS.Platform
  dataDir: string
  workspace: string
  outputRoot: string
  onCall: (call: BashCall) => void
  onProgress: (progress: { call: BashCall; sample: ProgressSample }) => void
}

export interface BashCallService {
  /** One Bash tool call as an agent makes it: decide, maybe ask, run, and answer with the model's view. */
  run(sessionId: string, input: Record<string, unknown>): Promise<BashCall>
  /**
   * Ends a call that has not answered yet: a pending approval is withdrawn, a foreground command's
   * whole tree is killed. Resolves with the call as it ended.
   */
  cancel(sessionId: string, callId: string): Promise<BashCall>
  /**
   * Commits a foreground command to a background task now, as the auto-background deadline would:
   * the process keeps running and the call answers with its task id.
   */
  background(sessionId: string, callId: string): Promise<BashCall>
  /**
   * Refuses new calls and cancels the running ones (their trees are killed, pending approvals
   * denied), waiting up to DISPOSE_WAIT_MS for them: quitting never leaves a foreground command behind.
   */
  dispose(): Promise<void>
}

/** Running or waiting for approval at once, across sessions: far above what an agent does, low enough that a client cannot start thousands of processes. */
export const MAX_CALLS_IN_FLIGHT = 64

/** Long enough for the 1.5 s TERM grace and the KILL that follows. */
const DISPOSE_WAIT_MS = 5_000

/**
 * The Bash tool path for the app (seed 003): classify → decide (mode and rules) → ask a person when
 * needed → run under the background lifecycle → what the model sees → audit line. The call is not
 * tied to the UI connection that asked: a reloaded window finds it (and its approval) again.
 */
export function createBashCallService(options: BashCallServiceOptions): BashCallService {
  const { sessions, settings, audit } = options

  const publish = async (session: LiveSession, call: BashCall) => {
    await session.history.put(call)
    options.onCall(call)
  }

  const auditCall = (
    session: LiveSession,
    call: BashCall,
    extra: { decidedBy: string; approvedBy: string | null; status?: AuditStatus },
  ) =>
    audit.append({
      session: session.record.id,
      command: call.command,
      cwd: call.cwd,
      shell: session.record.shell.path,
      verdict: call.status === 'denied' ? 'deny' : 'allow',
      decidedBy: extra.decidedBy as never,
      rule: call.decision?.rule ?? null,
      ruleFile: call.decision?.ruleFile ?? null,
      approvedBy: extra.approvedBy,
      status:
        extra.status ??
        (call.status === 'waiting_for_approval' || call.status === 'running' ? 'cancelled' : call.status),
      exitCode: call.exitCode,
      durationMs: call.durationMs,
      bytes: call.totalBytes,
      ...(call.taskId ? { taskId: call.taskId } : {}),
    })

  // Calls that have not answered yet, by call id; `phase` says what cancel and background may do.
  const inFlight = new Map<string, InFlightCall>()
  let closing = false
  // A backgrounded call's audit line says "backgrounded"; a second line, linked by taskId, says how
  // it ended (exit, bytes, who stopped it), and the session's history gets the same facts.
  const backgrounded = new Map<
    string,
    { session: LiveSession; call: BashCall; decidedBy: string; approvedBy: string | null }
  >()
  // The registry lives and dies with this service's core, so the listener is never removed.
  options.tasks.onEvent((event) => {
    const entry = event.type === 'completed' ? backgrounded.get(event.task.taskId) : undefined
    if (!entry) return
    backgrounded.delete(event.task.taskId)
    const { task } = event
    const ended: BashCall = {
      ...entry.call,
      exitCode: task.exitCode,
      taskStatus: task.status,
      exitSignal: task.exitSignal,
      durationMs: task.elapsedMs,
      totalBytes: task.bytes,
    }
    void publish(entry.session, ended).catch(() => undefined)
    void auditCall(entry.session, ended, {
      decidedBy: entry.decidedBy,
      approvedBy: entry.approvedBy,
      status: task.status === 'running' ? 'backgrounded' : task.status,
    }).catch(() => undefined)
  })

  return {
    run(sessionId, rawInput) {
      if (inFlight.size >= MAX_CALLS_IN_FLIGHT) {
        return Promise.reject(
          new WorkbenchError(
            'denied',
            `${MAX_CALLS_IN_FLIGHT} calls are already running or waiting; try again when one ends`,
          ),
        )
      }
      if (closing)
        return Promise.reject(new WorkbenchError('denied', 'Shellgate is shutting down; nothing new runs'))
      const entry: InFlightCall = {
        sessionId,
        controller: new AbortController(),
        backgroundNow: new AbortController(),
        phase: 'deciding',
        done: Promise.resolve(null as never),
      }
      const callId = randomUUID()
      inFlight.set(callId, entry)
      entry.done = runCall(callId, sessionId, rawInput, entry).finally(() => inFlight.delete(callId))
      return entry.done
    },
    async cancel(sessionId, callId) {
      const entry = inFlightOf(sessionId, callId)
      if (entry.phase === 'background') throw movedToBackground(callId)
      entry.controller.abort(new Error('cancelled by the caller'))
      return entry.done
    },
    async background(sessionId, callId) {
      const entry = inFlightOf(sessionId, callId)
      if (entry.phase === 'approval' || entry.phase === 'deciding') {
        throw new WorkbenchError(
          'invalid_input',
          `call "${callId}" has not started yet (it waits for approval)`,
        )
      }
      if (entry.phase === 'foreground_only') {
        throw new WorkbenchError(
          'invalid_input',
          `call "${callId}" starts with sleep, which ends at its timeout instead of moving to the background`,
        )
      }
      if (entry.phase === 'background') throw movedToBackground(callId)
      entry.backgroundNow.abort()
      return entry.done
    },
    async dispose() {
      closing = true
      const calls = [...inFlight.values()]
      for (const call of calls) call.controller.abort(new Error('Shellgate is shutting down'))
      let timer: NodeJS.Timeout | undefined
      await Promise.race([
        Promise.allSettled(calls.map((call) => call.done)),
        new Promise((resolve) => {
          timer = setTimeout(resolve, DISPOSE_WAIT_MS)
        }),
      ])
      clearTimeout(timer)
    },
  }

  function inFlightOf(sessionId: string, callId: string): InFlightCall {
    const entry = inFlight.get(callId)
    // Another session's call reads as unknown: its id tells the caller nothing.
    if (!entry || entry.sessionId !== sessionId) {
      throw new WorkbenchError('invalid_input', `no call "${callId}" is running in this session`, 'callId')
    }
    return entry
  }

  async function runCall(
    callId: string,
    sessionId: string,
    rawInput: Record<string, unknown>,
    entry: InFlightCall,
  ): Promise<BashCall> {
    const { signal } = entry.controller
    const session = sessions.get(sessionId)
    const input = parseInput(rawInput)
    const call: BashCall = {
      id: callId,
      sessionId,
      command: input.command,
      description: input.description ?? null,
      cwd: session.cwd,
      startedAt: new Date().toISOString(),
      status: 'running',
      exitCode: null,
      exitSignal: null,
      durationMs: null,
      totalBytes: 0,
      content: '',
      isError: false,
      outputPath: null,
      taskId: null,
      taskStatus: null,
      decision: null,
    }
    // seed 003: an empty command is an empty result, not an error and not a process.
    if (input.command.trim() === '') {
      const done: BashCall = { ...call, status: 'completed', exitCode: 0, durationMs: 0 }
      await publish(session, done)
      return done
    }

    const verdict = classifyCommand(input.command, { cwd: session.cwd, platform: options.platform })
    const userSettings = settings.user()
    const decision = decideBashPermission({
      verdict,
      mode: userSettings.permissions.mode,
      ruleSets: applyWorkspaceTrust(
        ruleSetsFromScoped(settings.rules(sessionId)),
        settings.workspaceFile,
        options.trust.trustedRules(settings.workspaceFile),
      ).ruleSets,
    })
    const firstRule = decision.rules[0]
    let current: BashCall = {
      ...call,
      decision: {
        outcome: decision.outcome,
        decidedBy: decision.basis,
        reason: decision.reason,
        rule: firstRule?.rule ?? null,
        ruleFile: firstRule ? (firstRule.file ?? `${firstRule.source}:${sessionId}`) : null,
      },
    }
    let decidedBy: string = decidedByOf(decision)
    let approvedBy: string | null = null

    if (decision.outcome === 'deny') {
      current = {
        ...current,
        status: 'denied',
        content: `Permission denied: ${decision.reason}`,
        isError: true,
      }
      await publish(session, current)
      await auditCall(session, current, { decidedBy, approvedBy })
      return current
    }

    if (decision.outcome === 'ask') {
      entry.phase = 'approval'
      current = { ...current, status: 'waiting_for_approval' }
      await publish(session, current)
      const pending = options.approvals.request(
        {
          sessionId,
          command: input.command,
          cwd: session.cwd,
          shell: session.record.shell.path,
          ...(input.description ? { description: input.description } : {}),
          mode: userSettings.permissions.mode,
          why: approvalWhy(verdict, decision, suggestRules(verdict)),
        },
        { signal, checkRule: (rule) => ruleAllowsCommand(rule, verdict) },
      )
      const answer = await pending.decision
      decidedBy = answer.decidedBy
      approvedBy = answer.approvedBy
      if (answer.behavior === 'deny') {
        current = { ...current, status: 'denied', content: answer.message, isError: true }
        await publish(session, current)
        await auditCall(session, current, { decidedBy, approvedBy })
        return current
      }
      if (answer.decidedBy === 'user_always') {
        current = {
          ...current,
          decision: { ...current.decision!, rule: answer.rule.rule, ruleFile: answer.rule.source },
        }
      }
    }

    // Cancelled while the approval was being answered: nothing starts.
    if (signal.aborted) {
      current = {
        ...current,
        status: 'cancelled',
        content: 'Command was cancelled before it started',
        isError: true,
      }
      await publish(session, current)
      await auditCall(session, current, { decidedBy, approvedBy })
      return current
    }
    // Known before the "running" event, so cancel and background act on what the caller saw.
    entry.phase =
      !input.run_in_background && !isAutoBackgroundEligible(input.command) ? 'foreground_only' : 'foreground'
    current = { ...current, status: 'running' }
    await publish(session, current)
    current = await execute(session, current, input, verdict, entry)
    if (current.taskId) backgrounded.set(current.taskId, { session, call: current, decidedBy, approvedBy })
    await publish(session, current)
    await auditCall(session, current, { decidedBy, approvedBy })
    return current
  }

  async function execute(
    session: LiveSession,
    call: BashCall,
    input: BashToolInput,
    verdict: CommandVerdict,
    entry: InFlightCall,
  ): Promise<BashCall> {
    const { signal } = entry.controller
    const userSettings = settings.user()
    const limits = userSettings.limits
    const runtimeEnv = await options.runtimeEnv()
    const policy = resolveTimeoutPolicy(runtimeEnv, {
      defaultMs: limits.defaultTimeoutMs,
      maxMs: limits.maxTimeoutMs,
    })
    const timeoutMs = effectiveTimeoutMs(input.timeout, policy)
    const outputPath = await prepareTaskOutputPath(options.outputRoot, session.record.id, call.id)
    const prepared = await prepareBashToolRequest({
      shell: session.record.shell,
      snapshots: options.snapshots,
      runtimeEnv,
      network: userSettings.network,
      platform: options.platform,
      dataDir: options.dataDir,
      command: input.command,
      cwd: session.cwd,
    })
    const started = Date.now()
    const hooks = {
      onProgress: (sample: ProgressSample) => options.onProgress({ call, sample }),
    }
    const finish = (result: ExecutionResult) =>
      foregroundContent({
        call,
        result,
        verdict,
        session,
        cwdFile: prepared.cwdFile,
        outputPath,
        input,
        inlineLimit: limits.maxOutputLength,
        workspace: options.workspace,
        platform: options.platform,
        started,
      })
    const common = {
      sessionId: session.record.id,
      command: input.command,
      outputPath,
      hooks,
      signal,
      backgroundNow: entry.backgroundNow.signal,
      taskId: call.id,
      ...(input.description ? { description: input.description } : {}),
    }

    if (!input.run_in_background && !isAutoBackgroundEligible(input.command)) {
      // A leading `sleep` that outlives its timeout is meant to die, not to become a task.
      const result = await options.port.execute(
        { ...prepared.request, timeoutMs, signal, output: { mode: 'file', outputPath } },
        hooks,
      )
      return finish(result)
    }
    const outcome = await runWithBackgroundLifecycle(
      options.port,
      options.tasks,
      prepared.request,
      input.run_in_background ? { mode: 'explicit' } : { mode: 'auto_on_timeout', deadlineMs: timeoutMs },
      common,
    )
    if (outcome.kind === 'foreground') {
      return finish(outcome.result)
    }
    entry.phase = 'background'
    const output = await settleOutputFile(outputPath, 0, true)
    return {
      ...call,
      status: 'backgrounded',
      durationMs: Date.now() - started,
      totalBytes: output.totalBytes,
      content: formatBackgroundedContent(outcome.task.taskId, outputPath),
      outputPath,
      taskId: outcome.task.taskId,
    }
  }
}

interface InFlightCall {
  sessionId: string
  /** Aborting it withdraws the approval or kills the foreground tree. */
  controller: AbortController
  /** Aborting it commits the foreground command to the background. */
  backgroundNow: AbortController
  phase: 'deciding' | 'approval' | 'foreground' | 'foreground_only' | 'background'
  done: Promise<BashCall>
}

function movedToBackground(callId: string): WorkbenchError {
  return new WorkbenchError(
    'invalid_input',
    `call "${callId}" is a background task now; stop it as task ${callId}`,
    'callId',
  )
}

function parseInput(raw: Record<string, unknown>): BashToolInput {
  const parsed = BashToolInputSchema.safeParse(raw)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const field = issue?.path[0] === undefined ? 'input' : String(issue.path[0])
  throw new WorkbenchError('invalid_input', issue?.message ?? 'invalid', field)
}
