import type { BashCall } from '../../../shared/ipc/domains/bash'
import { BASH_MAX_TIMEOUT_MS } from '../bash/tool/timeout-policy'
import type { OutputFileRef } from '../exec/types'
import type { auditBashCall } from './call-audit'
import type { HookTickets } from './hook-tickets'
import { newCall } from './new-call'
import type { TicketCall } from './ticket-call'
import type { LiveSession, SessionService } from './session-service'
import { WorkbenchError } from './workbench-error'

export interface TicketRunOptions {
  /** The runner's own id for this run (its output stream); the call keeps the decision's id. */
  callId: string
  /** The runner went away (the client killed it): the call is cancelled and its tree killed. */
  signal: AbortSignal
  /** The output file once the executor created it, so the runner can stream it. */
  onOutputFile(file: OutputFileRef): void
}

export interface TicketRunDeps {
  tickets: HookTickets
  sessions: SessionService
  /** BashCallService.run, typed here so the service and its ticket path do not import each other. */
  run: (
    sessionId: string,
    input: Record<string, unknown>,
    options: { callId: string; signal: AbortSignal; ticket: TicketCall },
  ) => Promise<BashCall>
  auditCall: (
    session: LiveSession,
    call: BashCall,
    extra: Parameters<typeof auditBashCall>[3],
  ) => ReturnType<typeof auditBashCall>
  publish: (session: LiveSession, call: BashCall) => Promise<void>
}

/** The automatic decisions: nobody was asked, so a run that now asks shows the card again. */
const AUTOMATIC = new Set(['read_only', 'rule', 'mode'])

/**
 * `shellgate ticket T`: exactly the command the hook allowed, once, in its session, through run()
 * (the executor, the sandbox profile, the clean environment, the audit line and the desk), as the
 * agent's foreground command. What the agent's shell would have said beside the output is in notes.
 */
export async function runTicket(
  deps: TicketRunDeps,
  ticket: string,
  options: TicketRunOptions,
): Promise<{ call: BashCall; notes: string[] }> {
  await auditUnusedTickets(deps)
  const redeemed = deps.tickets.redeem(ticket)
  if (!redeemed.ok) throw new WorkbenchError('denied', `${redeemed.message} [${redeemed.code}]`)
  const { grant } = redeemed
  let endCwd = grant.cwd
  const call = await deps.run(
    grant.sessionId,
    {
      command: grant.command,
      ...(grant.description ? { description: grant.description } : {}),
      timeout: grant.timeoutMs ?? BASH_MAX_TIMEOUT_MS,
    },
    {
      callId: grant.callId,
      signal: options.signal,
      ticket: {
        approval: AUTOMATIC.has(grant.decidedBy) ? null : grant,
        cwd: grant.cwd,
        onOutputFile: options.onOutputFile,
        onEndCwd: (cwd) => {
          endCwd = cwd
        },
      },
    },
  )
  return { call, notes: notesFor(call, grant.cwd, endCwd) }
}

/**
 * What the agent's shell tool says after the output: why it did not run, how it ended, what the
 * sandbox stopped, and that a `cd` stays in Shellgate (the client's shell never ran the command).
 */
function notesFor(call: BashCall, startCwd: string, endCwd: string): string[] {
  if (call.status === 'denied') return [`Shellgate: not run: ${call.content}`]
  const notes = call.content
    .split('\n')
    .filter((line) => line.startsWith('Sandbox: ') || line.startsWith('blocked by the sandbox'))
    .map((line) => `Shellgate: ${line}`)
  if (call.status === 'timed_out')
    notes.push(
      `Shellgate: timed out after ${Math.round((call.durationMs ?? 0) / 1000)} s; its process tree was stopped`,
    )
  if (call.status === 'cancelled') notes.push('Shellgate: cancelled; its process tree was stopped')
  if (call.status === 'spawn_error') notes.push(`Shellgate: could not start: ${call.content}`)
  if (endCwd !== startCwd) {
    notes.push(
      `Shellgate ran this command, so its \`cd\` did not move your shell: you are still in ${startCwd}. Use absolute paths, or \`cd ${endCwd} && …\` in the same command; a bare \`cd DIR\` runs in your own shell.`,
    )
  }
  return notes
}

/** A ticket nobody ran: the hook allowed it and the client never started it (or was stopped first). */
export async function auditUnusedTickets(deps: TicketRunDeps): Promise<void> {
  for (const grant of deps.tickets.takeExpired()) {
    let session: LiveSession
    try {
      session = deps.sessions.get(grant.sessionId)
    } catch {
      continue // the session was closed; its audit lines are final
    }
    const call: BashCall = {
      ...newCall(grant.callId, session, grant),
      cwd: grant.cwd,
      status: 'cancelled',
      content: 'Allowed by its hook, but the agent never ran it (the ticket expired)',
      isError: true,
    }
    await deps.publish(session, call)
    await deps.auditCall(session, call, {
      decidedBy: grant.decidedBy,
      approvedBy: grant.approvedBy,
      status: 'ticket_unused',
    })
  }
}
