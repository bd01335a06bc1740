import { randomUUID } from 'node:crypto'
import type { BashCall, BashCheck } from '../../../shared/ipc/domains/bash'
import type { CallChannel } from '../../../shared/ipc/domains/sessions'
import type { ApprovalBroker } from '../permissions/approval-broker'
import type { AuditLog } from '../settings/audit-log'
import { approvalSandbox } from './call-sandbox'
import { askThePerson, type PromiseSettler } from './call-approval'
import { callDecisionOf, decidedByOf } from './decision-record'
import type { LiveSession, SessionService } from './session-service'
import { endsAtTimeout, type InFlightCall, movedToBackground } from './in-flight-call'
import { WorkbenchError } from './workbench-error'
import { runningShareRefusal } from './call-shares'
import { auditBashCall } from './call-audit'
import { trackBackgroundedCalls } from './backgrounded-calls'
import type { KeptDecisions } from './kept-decisions'
import type { PromisedTask } from './promised-task'
import { type CallDecisionDeps, type CallKind, decideCall } from './call-decision'
import { type CallExecutionDeps, executeCall } from './call-execution'
import { decideForHook, type HookQuestion, type HookVerdict } from './hook-decision'
import { createHookTickets } from './hook-tickets'
import { checkCall } from './call-check'
import { newCall, parseInput, terminalInput } from './new-call'
import { refuseOverTerminalCap } from './terminal-call'
import type { TicketCall } from './ticket-call'
import { auditUnusedTickets, runTicket, type TicketRunOptions } from './ticket-run'

export interface BashCallServiceOptions extends CallExecutionDeps, CallDecisionDeps {
  sessions: SessionService
  approvals: ApprovalBroker
  audit: AuditLog
  onCall: (call: BashCall) => void
  /** Where promised tasks' decisions outlive the agent run (issue 22.5). */
  kept?: KeptDecisions
}

/** How a caller runs a call, beside the Bash tool's own input. */
export interface BashRunOptions {
  /** The caller's id for the call, so it can cancel it or follow its progress before the answer. */
  callId?: string
  /**
   * The caller's clock (an MCP client drops a call after about a minute): a foreground command
   * still running then becomes a background task, and a call still waiting for the person then
   * answers that it will run as task T if they allow it.
   */
  answerWithinMs?: number
  /** The caller went away: a call that has not answered is cancelled (a promised or background task stays). */
  signal?: AbortSignal
  /** How the call arrived (its conversation's history shows it); a ticket run arrived by a hook. */
  via?: CallChannel
  /** A hook's ticket run: decided before, run where the agent's shell is, ended at its timeout. */
  ticket?: TicketCall
}

export interface BashCallService {
  /** One Bash tool call as an agent makes it: decide, maybe ask, run, and answer with the model's view. */
  run(sessionId: string, input: Record<string, unknown>, options?: BashRunOptions): Promise<BashCall>
  /** A task id promised by a call that is (or was) waiting for approval; null when there is none. */
  promisedTask(taskId: string): PromisedTask | null
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
  /** What run() would decide for this command now (mode, rules, trust); nothing runs, nothing is asked. */
  check(sessionId: string, command: string): Promise<BashCheck>
  /**
   * A hook's question: the agent runs the command with its own tool. The same decision as run(),
   * the person asked when it needs them; audited, but nothing runs here.
   */
  decideForHook(sessionId: string, input: HookQuestion, signal?: AbortSignal): Promise<HookVerdict>
  /** A hook-allowed command, once, through run() in its session (issue 20; see ticket-run.ts). */
  runTicket(ticket: string, options: TicketRunOptions): ReturnType<typeof runTicket>
  /**
   * Refuses new calls and cancels the running ones (their trees are killed, pending approvals
   * denied), waiting up to DISPOSE_WAIT_MS for them, then for every tree kill to finish: quitting
   * never leaves a foreground command behind, sandboxed or not.
   */
  dispose(): Promise<void>
}

/** Long enough for the 1.5 s TERM grace and the KILL that follows. */
const DISPOSE_WAIT_MS = 5_000

/**
 * The Bash tool path for the app (seed 003): classify → decide (mode and rules) → ask a person when
 * needed → run under the background lifecycle → what the model sees → audit line. The call is not
 * tied to the UI connection that asked: a reloaded window finds it (and its approval) again.
 */
export function createBashCallService(options: BashCallServiceOptions): BashCallService {
  const { sessions, settings, audit } = options
  const decisionDeps = { ...options, ...(options.sandbox ? { userHome: options.sandbox.home } : {}) }
  const decide = (session: LiveSession, command: string, how?: CallKind) =>
    decideCall(decisionDeps, session, command, how)
  const auditCall = (session: LiveSession, call: BashCall, extra: Parameters<typeof auditBashCall>[3]) =>
    auditBashCall(audit, session, call, extra)

  const publish = async (session: LiveSession, call: BashCall) => {
    await session.history.put(call)
    options.onCall(call)
  }

  // Calls that have not ended yet, by call id; `phase` says what cancel and background may do.
  const inFlight = new Map<string, InFlightCall>()
  const promised = new Map<string, PromisedTask>()
  let closing = false
  const backgrounded = trackBackgroundedCalls(options.tasks, publish, auditCall)
  const tickets = createHookTickets()

  const service: BashCallService = {
    run(sessionId, rawInput, runOptions = {}) {
      const busy = runningShareRefusal(inFlight.values(), sessionId)
      if (busy) return Promise.reject(new WorkbenchError('denied', busy))
      if (closing)
        return Promise.reject(new WorkbenchError('denied', 'Shellgate is shutting down; nothing new runs'))
      const callId = runOptions.callId ?? randomUUID()
      const used = inFlight.has(callId) || promised.has(callId) || options.tasks.get(callId) !== null
      // A ticket's run takes the place its hook decision holds in the history (hook-decision.ts).
      const placeholder = runOptions.ticket !== undefined && holdsHookPlace(sessionId, callId)
      if (used || (sessionHasCall(sessionId, callId) && !placeholder)) {
        return Promise.reject(
          new WorkbenchError('invalid_input', `call id "${callId}" is already used`, 'callId'),
        )
      }
      let answer!: (call: BashCall) => void
      const answered = new Promise<BashCall>((resolve) => {
        answer = resolve
      })
      const entry: InFlightCall = {
        sessionId,
        controller: new AbortController(),
        backgroundNow: new AbortController(),
        phase: 'deciding',
        done: Promise.resolve(null as never),
        answerWithinMs: runOptions.answerWithinMs ?? null,
        startedAt: Date.now(),
        answer,
        detachCaller: () => undefined,
      }
      const external = runOptions.signal
      if (external) {
        const onLeave = () => entry.controller.abort(new Error('the caller went away'))
        if (external.aborted) onLeave()
        else external.addEventListener('abort', onLeave, { once: true })
        entry.detachCaller = () => external.removeEventListener('abort', onLeave)
      }
      inFlight.set(callId, entry)
      entry.done = runCall(callId, sessionId, rawInput, entry, runOptions).finally(() => {
        entry.detachCaller()
        inFlight.delete(callId)
      })
      return Promise.race([answered, entry.done])
    },
    promisedTask(taskId) {
      return promised.get(taskId) ?? null
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
    decideForHook(sessionId, input, signal) {
      void auditUnusedTickets({ tickets, sessions, run: service.run, auditCall, publish }).catch(
        () => undefined,
      )
      const cardSandbox = async () =>
        options.sandbox ? approvalSandbox(options.sandbox, settings.user().sandbox) : undefined
      return decideForHook(
        { approvals: options.approvals, tickets, decide, cardSandbox, auditCall, publish },
        sessions.get(sessionId),
        input,
        signal,
      )
    },
    runTicket(ticket, ticketOptions) {
      return runTicket({ tickets, sessions, run: service.run, auditCall, publish }, ticket, ticketOptions)
    },
    check(sessionId, command) {
      return checkCall(sessions.get(sessionId), command, settings.user().permissions.mode, decide)
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
      // File-mode results come back when the kill is asked for; the trees die behind them.
      await options.port.whenQuiet?.()
    },
  }
  return service

  function holdsHookPlace(sessionId: string, callId: string): boolean {
    const held = sessionHasCall(sessionId, callId) ? sessions.get(sessionId).history.get(callId) : null
    return held?.via === 'hook' && held.status === 'running'
  }

  function sessionHasCall(sessionId: string, callId: string): boolean {
    try {
      return sessions.get(sessionId).history.get(callId) !== null
    } catch {
      return false
    }
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
    { ticket, via = ticket ? 'hook' : undefined }: Pick<BashRunOptions, 'ticket' | 'via'>,
  ): Promise<BashCall> {
    const { signal } = entry.controller
    const session = sessions.get(sessionId)
    const input = terminalInput(parseInput(rawInput))
    const call = {
      ...newCall(callId, session, input),
      ...(ticket ? { cwd: ticket.cwd } : {}),
      ...(via ? { via } : {}),
    }
    if (via) await sessions.touch(sessionId, via)
    if (input.tty) await refuseOverTerminalCap(options.tasks, sessionId)
    // seed 003: an empty command is an empty result, not an error and not a process.
    if (input.command.trim() === '') {
      const done: BashCall = { ...call, status: 'completed', exitCode: 0, durationMs: 0 }
      await publish(session, done)
      return done
    }

    const { verdict, decision, userSettings, decideAgain } = await decide(session, input.command, {
      terminal: input.tty === true,
    })
    let current: BashCall = {
      ...call,
      decision: callDecisionOf(decision, sessionId),
    }
    let decidedBy: string = decidedByOf(decision)
    let approvedBy: string | null = null
    // issue 12: only what the policy let run without asking gets the read-only profile.
    const ranWithoutAsking = decision.outcome === 'allow' && decidedBy === 'read_only'
    let unsandboxedByPerson = false
    // Set when the caller's clock ran out during the approval: the call answered "it will run as task T".
    const promise: PromiseSettler = { settle: null }

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

    // The person answered the hook's card already: the ticket carries that answer, no second card.
    const approved = decision.outcome === 'ask' ? (ticket?.approval ?? null) : null
    if (approved) {
      decidedBy = approved.decidedBy
      approvedBy = approved.approvedBy
      unsandboxedByPerson = approved.unsandboxedByPerson
      if (approved.rule) {
        current = {
          ...current,
          decision: { ...current.decision!, rule: approved.rule.rule, ruleFile: approved.rule.source },
        }
      }
    } else if (decision.outcome === 'ask') {
      const asked = await askThePerson(
        { ...options, promised, publish, auditCall },
        {
          session,
          input,
          decided: { verdict, decision, userSettings, decideAgain },
          entry,
          call: current,
          promise,
        },
      )
      current = asked.call
      if (asked.ended) return current
      ;({ decidedBy, approvedBy, unsandboxedByPerson } = asked)
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
      promise.settle?.({ state: 'ended', message: current.content, call: current })
      return current
    }
    // It was promised as task T: it runs in the background from its first moment.
    const runInput = promise.settle ? { ...input, run_in_background: true } : input
    // Known before the "running" event, so cancel and background act on what the caller saw.
    // A ticket run is the agent's own foreground command: it ends at its timeout, as in its shell.
    entry.phase = ticket || endsAtTimeout(runInput, entry) ? 'foreground_only' : 'foreground'
    current = { ...current, status: 'running' }
    await publish(session, current)
    const ran = await executeCall(
      options,
      session,
      current,
      runInput,
      verdict,
      entry,
      { ranWithoutAsking, unsandboxedByPerson },
      ticket,
    )
    current = ran.call
    promise.settle?.(
      current.taskId
        ? { state: 'started', call: current }
        : { state: 'ended', message: current.content, call: current },
    )
    if (current.taskId) {
      backgrounded.add(current.taskId, {
        session,
        call: current,
        decidedBy,
        approvedBy,
        unsandboxedByPerson,
        sandbox: ran.sandbox,
      })
    } else {
      await ran.sandbox?.release()
    }
    await publish(session, current)
    await auditCall(session, current, { decidedBy, approvedBy, unsandboxedByPerson })
    return current
  }
}

export type { HookVerdict } from './hook-decision'
export type { PromisedTask } from './promised-task'
