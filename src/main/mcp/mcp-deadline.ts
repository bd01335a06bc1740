/**
 * MCP clients drop a call after about 60 s (Claude Desktop, Codex's tool_timeout_sec, the TS SDK's
 * default), so every tool call answers within 45 s, leaving room for the answer to travel.
 */
export const MCP_DEADLINE_DEFAULT_MS = 45_000
export const MCP_DEADLINE_MIN_MS = 100
export const MCP_DEADLINE_MAX_MS = 600_000

/** SHELLGATE_MCP_DEADLINE_MS when set; an unusable value is refused with the reason (never guessed). */
export function resolveMcpDeadline(
  env: Readonly<Record<string, string | undefined>>,
): { ok: true; ms: number } | { ok: false; message: string } {
  const raw = env.SHELLGATE_MCP_DEADLINE_MS?.trim()
  if (raw === undefined || raw === '') return { ok: true, ms: MCP_DEADLINE_DEFAULT_MS }
  const ms = /^\d+$/.test(raw) ? Number(raw) : Number.NaN
  if (!Number.isSafeInteger(ms) || ms < MCP_DEADLINE_MIN_MS || ms > MCP_DEADLINE_MAX_MS) {
    return {
      ok: false,
      message: `SHELLGATE_MCP_DEADLINE_MS must be whole milliseconds from ${MCP_DEADLINE_MIN_MS} to ${MCP_DEADLINE_MAX_MS}, got "${raw.slice(0, 40)}"`,
    }
  }
  return { ok: true, ms }
}
