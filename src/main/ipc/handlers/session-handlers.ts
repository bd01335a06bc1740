import type { ShellgateContract } from '../../../shared/ipc/contract'
import { RpcError } from '../../../shared/ipc/errors'
import type { Core } from '../../core/app'
import { readOutputTail } from '../../core/tasks/output-file-range'
import { waitForTask } from '../../core/workbench/task-wait'
import { toTaskView } from '../../core/workbench/task-view'
import type { Handlers } from '../dispatcher'
import type { AgentPresence } from '../agent-presence'
import { refuseBroadAgentWorkspace } from '../agent-workspace'
import type { SessionOwnership } from '../session-ownership'
import { joinRun } from './join-run'
import { agentProcessOf } from '../../core/sessions/agent-process'

/** The full-output view shows at most this much of a call's file; the path is given for the rest. */
const CALL_OUTPUT_VIEW_BYTES = 4 * 1024 * 1024

type SessionHandlers = Pick<
  Handlers<ShellgateContract>,
  | 'sessions.list'
  | 'sessions.create'
  | 'sessions.close'
  | 'bash.run'
  | 'bash.cancel'
  | 'bash.background'
  | 'bash.history'
  | 'bash.output'
  | 'bash.check'
  | 'approvals.list'
  | 'approvals.answer'
  | 'tasks.list'
  | 'tasks.tail'
  | 'tasks.stop'
  | 'tasks.stopAll'
  | 'tasks.wait'
>

/**
 * Agent calls are checked against the ownership map before the core is asked, so an agent gets
 * the same `denied` for another session's id as for an id that does not exist.
 */
export function sessionHandlers(
  core: Core,
  ownership: SessionOwnership,
  presence: AgentPresence,
): SessionHandlers {
  return {
    'sessions.list': () => core.sessions.list(),
    'sessions.create': async ({ title, workspace, agent, run, channel: asked }, context) => {
      const places = { userHome: core.sandbox.home, shellgateHome: core.dataDir }
      const checked = context.role === 'agent' && workspace !== undefined ? workspace : null
      // Looked up once, while the workspace is checked: a read-only walk up /proc (null when unknown).
      const agentProcess = run?.pid
        ? agentProcessOf(run.pid, core.platform).catch(() => null)
        : Promise.resolve(null)
      if (checked !== null) await refuseBroadAgentWorkspace(checked, places)
      const channel = asked ?? (context.role === 'agent' ? 'mcp' : 'person')
      const joined =
        context.role === 'agent'
          ? await joinRun(core, { workspace, agent, run, channel }, agentProcess)
          : null
      if (joined) {
        ownership.claim(joined.id, context.connectionId, channel)
        if (channel === 'mcp') presence.join(joined.id, context)
        return joined
      }
      const process = await agentProcess
      const session = await core.sessions.create({
        ...(title === undefined ? {} : { title }),
        ...(workspace === undefined ? {} : { workspace }),
        ...(agent === undefined ? {} : { agent: { name: agent.name, version: agent.version ?? null } }),
        ...(run?.agentSessionId || process
          ? {
              run: {
                ...(run?.agentSessionId ? { agentSessionId: run.agentSessionId } : {}),
                ...(process ? { process } : {}),
              },
            }
          : {}),
        channel,
      })
      if (checked !== null) {
        await refuseBroadAgentWorkspace(checked, places, session.workspace).catch(async (error: unknown) => {
          await core.closeSession(session.id)
          throw error
        })
      }
      if (context.role === 'agent') {
        ownership.claim(session.id, context.connectionId, channel)
        if (channel === 'mcp') presence.join(session.id, context)
      }
      return session
    },
    'sessions.close': async ({ sessionId }, context) => {
      ownership.require(context, sessionId, 'sessions.close')
      if (context.role === 'agent') {
        // An agent's run ends (its history stays, folded); a run another connection still holds goes on.
        if (ownership.release(sessionId, context.connectionId) && !core.sessions.isAttached(sessionId))
          await core.sessions.end(sessionId)
        return { ok: true as const }
      }
      await core.closeSession(sessionId)
      ownership.forget(sessionId)
      return { ok: true as const }
    },
    'bash.run': ({ sessionId, callId, answerWithinMs, ...input }, context) => {
      ownership.require(context, sessionId, 'bash.run')
      // An agent (or any caller on a clock) is a live client: its leaving cancels what has not answered.
      const tied = context.role === 'agent' || answerWithinMs !== undefined
      const via = context.role === 'agent' ? ownership.channelOf(sessionId, context.connectionId) : 'person'
      return core.bash.run(sessionId, input, {
        via,
        ...(callId ? { callId } : {}),
        ...(answerWithinMs ? { answerWithinMs } : {}),
        ...(tied ? { signal: context.signal } : {}),
      })
    },
    'bash.cancel': ({ sessionId, callId }, context) => {
      ownership.require(context, sessionId, 'bash.cancel')
      return core.bash.cancel(sessionId, callId)
    },
    'bash.background': ({ sessionId, callId }, context) => {
      ownership.require(context, sessionId, 'bash.background')
      return core.bash.background(sessionId, callId)
    },
    'bash.check': ({ sessionId, command }, context) => {
      ownership.require(context, sessionId, 'bash.check')
      return core.bash.check(sessionId, command)
    },
    'bash.history': ({ sessionId }, context) => {
      ownership.require(context, sessionId, 'bash.history')
      return core.sessions.get(sessionId).history.list()
    },
    'bash.output': async ({ sessionId, callId }, context) => {
      ownership.require(context, sessionId, 'bash.output')
      const call = core.sessions.get(sessionId).history.get(callId)
      if (!call) throw new RpcError('invalid_input', `bash.output: no call "${callId}" in this session`)
      const { outputPath: path, outputIdentity: identity } = call
      if (!path) return { text: '', totalBytes: 0, skippedBytes: 0, path: null }
      // History written before files were tracked by identity cannot be checked, so it is not read.
      if (!identity)
        return {
          text: `[output not read: ${path} was not recorded with its file identity]`,
          totalBytes: 0,
          skippedBytes: 0,
          path,
        }
      const slice = await readOutputTail({ path, identity }, CALL_OUTPUT_VIEW_BYTES)
      return { text: slice.text, totalBytes: slice.size, skippedBytes: slice.offset, path: call.outputPath }
    },
    'approvals.list': () => core.approvals.list(),
    'approvals.answer': async ({ id, answer }) => {
      const result = await core.approvals.answer(id, answer, 'user')
      if (!result.ok) {
        const where = result.field ? `${result.field}: ` : ''
        throw new RpcError(
          result.code === 'persist_failed' ? 'internal' : 'invalid_input',
          `approvals.answer: ${where}${result.message}`,
        )
      }
      return { ok: true as const, alsoAnswered: result.alsoAnswered ?? 0 }
    },
    'tasks.list': async (_input, context) =>
      (await core.tasks.list())
        .filter((task) => ownership.mayAccess(context, task.sessionId))
        .map((task) => toTaskView(task, core.ports.ports(task.taskId)))
        .reverse(),
    'tasks.tail': async ({ sessionId, taskId }, context) => {
      ownership.require(context, sessionId, 'tasks.tail')
      const slice = await core.tasks.readTail(taskId, sessionId)
      const task = core.tasks.get(taskId)
      return {
        text: slice.text,
        totalBytes: slice.size,
        skippedBytes: slice.offset,
        path: task?.outputPath ?? null,
      }
    },
    'tasks.stop': async ({ taskId }, context) => {
      if (context.role === 'agent') {
        const task = core.tasks.get(taskId)
        if (!task || !ownership.mayAccess(context, task.sessionId))
          throw new RpcError(
            'denied',
            `tasks.stop: task "${taskId}" is not one of this connection's sessions`,
          )
      }
      // An agent stopping its own task is the caller, not the person.
      const result = await core.tasks.stop(taskId, context.role === 'agent' ? 'caller' : 'user')
      if (!result.ok) throw new RpcError('invalid_input', `tasks.stop: ${result.message}`)
      return toTaskView(result.task, core.ports.ports(taskId))
    },
    'tasks.wait': (input, context) => {
      ownership.require(context, input.sessionId, 'tasks.wait')
      return waitForTask(core, input, context.signal)
    },
    'tasks.stopAll': async () => {
      const results = await core.tasks.stopAll('user')
      return { stopped: results.filter((result) => result.ok).length }
    },
  }
}
