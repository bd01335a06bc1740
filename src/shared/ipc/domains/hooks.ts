import { z } from 'zod'
import { BashCallSchema, COMMAND_INPUT_MAX_CHARS } from './bash'

/** `hooks.decide`: an agent that keeps its own shell tool asks whether one command may run. */
export const HookDecideInputSchema = z
  .object({
    /** The agent program (claude-code, codex, gemini-cli); it names the session and the audit line. */
    agent: z.object({ name: z.string().min(1).max(200), version: z.string().max(100).optional() }).strict(),
    /** The agent's own session id: one Shellgate session per agent session, reused by each hook call. */
    agentSessionId: z.string().min(1).max(200),
    /** Where the agent runs (an existing directory); the command's rules and read-only checks use it. */
    workspace: z.string().min(1).max(4_096),
    command: z
      .string()
      .max(COMMAND_INPUT_MAX_CHARS, `a command is at most ${COMMAND_INPUT_MAX_CHARS} characters`),
    description: z.string().max(1_000).optional(),
    /** The hook's own pid: the hub finds the agent process among its ancestors and puts the call in that run's conversation. */
    pid: z.number().int().positive().optional(),
    /**
     * The client replaces its tool's command with the one the hook answers: an allowed command is
     * then run by Shellgate through a one-time ticket (issue 20). Without it the agent runs the
     * command itself, unsandboxed, and the stricter verdict for that applies.
     */
    rewrite: z.boolean().optional(),
    /**
     * The client runs it on a terminal the agent can type into later (Codex's exec_command with
     * tty, or input it types into one): never read-only, as a terminal task (issue 20.2).
     */
    terminal: z.boolean().optional(),
    /** The client's own timeout for its shell tool, in ms, when it gave one. */
    timeoutMs: z.number().int().min(1).max(600_000).optional(),
  })
  .strict()

/** Where an allowed hook command runs: a sandbox profile in Shellgate, or the agent's own shell. */
export const HookRunsInSchema = z.enum(['read-only', 'workspace-write', 'off', 'agent-shell'])
export type HookRunsIn = z.infer<typeof HookRunsInSchema>

export const HookDecisionSchema = z.object({
  decision: z.enum(['allow', 'deny']),
  /** For deny: what the agent is told (the rule, the mode, or the person's message). */
  reason: z.string(),
  decidedBy: z.string(),
  sessionId: z.string(),
  /**
   * For an allowed command the client may rewrite: the one-time ticket that runs exactly it in
   * Shellgate (`shellgate ticket T`); null when the agent runs it itself.
   */
  ticket: z.string().nullable().default(null),
})
export type HookDecision = z.infer<typeof HookDecisionSchema>

export { TICKET_PATTERN } from '../ticket-pattern'

/** `hooks.runTicket`: the rewritten command runs the decided one; answers when it has ended. */
export const TicketRunInputSchema = z
  .object({
    ticket: z.string().max(200),
    /** The id the runner gives the call, so it can read the output while it runs. */
    callId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'callId must be 8-64 letters, digits, "-" or "_"'),
  })
  .strict()

export const TicketRunSchema = z.object({
  call: BashCallSchema,
  /** Lines for the agent's stderr after the output: how it ended, what did not carry over. */
  notes: z.array(z.string()),
})
export type TicketRun = z.infer<typeof TicketRunSchema>

/** `hooks.ticketOutput`: the next bytes of a ticket run's output, for the connection running it. */
export const TicketOutputInputSchema = z
  .object({
    callId: z.string().max(128),
    fromByte: z.number().int().min(0),
    /** Wait up to this long for a byte past fromByte (0: answer at once). */
    waitMs: z.number().int().min(0).max(5_000),
  })
  .strict()

export const TicketOutputSchema = z.object({
  /** The bytes from fromByte, base64: output is bytes, and a chunk may end inside a character. */
  base64: z.string(),
  nextByte: z.number(),
  /** No output file (yet): the command has not started, or it was refused before it ran. */
  started: z.boolean(),
})
