import { z } from 'zod'
import { COMMAND_INPUT_MAX_CHARS } from './bash'

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
  })
  .strict()

export const HookDecisionSchema = z.object({
  decision: z.enum(['allow', 'deny']),
  /** For deny: what the agent is told (the rule, the mode, or the person's message). */
  reason: z.string(),
  decidedBy: z.string(),
  sessionId: z.string(),
})
export type HookDecision = z.infer<typeof HookDecisionSchema>
