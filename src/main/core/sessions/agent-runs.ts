import { basename } from 'node:path'
import type { ProcessIdentity } from './agent-process'
import type { SessionRecord } from './session-record'

/**
 * One program, whichever door it came in by: the MCP clientInfo names are `codex-mcp-client` and
 * `gemini-cli-mcp-client`, the hooks say `codex` and `gemini-cli`; Claude Code says `claude-code` in both.
 */
export function agentFamily(name: string): string {
  return name.replace(/-mcp-client$/, '')
}

/** What a caller knows about the run it belongs to. */
export interface RunQuery {
  agentName: string
  workspace: string
  agentSessionId?: string | undefined
  /** The agent process among the caller's ancestors (agentProcessOf). */
  process?: ProcessIdentity | null | undefined
  /** `shellgate exec`: any agent's run whose process is the caller's ancestor, whatever the name or folder. */
  anyAgent?: boolean
}

/**
 * Whether `record` is the conversation of the run the caller belongs to. The agent's own session id
 * decides when both sides know it (Claude Code gives it to its MCP server as CLAUDE_CODE_SESSION_ID
 * and to each hook as session_id); otherwise the agent process does (Codex and Gemini CLI give their
 * MCP server no session id, but the server and each hook are children of the same agent process).
 */
export function isSameRun(record: SessionRecord, query: RunQuery): boolean {
  if (!record.agent) return false
  const process = record.run?.process
  const sameProcess =
    process !== undefined &&
    query.process != null &&
    process.pid === query.process.pid &&
    process.startTime === query.process.startTime
  if (query.anyAgent) return sameProcess
  if (agentFamily(record.agent.name) !== agentFamily(query.agentName)) return false
  if (record.workspace !== query.workspace) return false
  const known = record.run?.agentSessionId
  if (known !== undefined && query.agentSessionId !== undefined) return known === query.agentSessionId
  return sameProcess
}

/**
 * A name that tells two conversations apart: agent and full version, workspace folder, start
 * time (local HH:MM), then seconds and a number if another open conversation has it already.
 */
export function conversationTitle(
  agent: { name: string; version: string | null },
  workspace: string,
  startedAt: Date,
  taken: ReadonlySet<string>,
): string {
  const who = agent.version ? `${agent.name} ${agent.version}` : agent.name
  const where = basename(workspace) || workspace
  const two = (n: number) => String(n).padStart(2, '0')
  const minute = `${two(startedAt.getHours())}:${two(startedAt.getMinutes())}`
  const base = `${who} · ${where} · ${minute}`.slice(0, 190)
  if (!taken.has(base)) return base
  const second = `${base}:${two(startedAt.getSeconds())}`
  if (!taken.has(second)) return second
  for (let n = 2; ; n++) if (!taken.has(`${second} (${n})`)) return `${second} (${n})`
}
