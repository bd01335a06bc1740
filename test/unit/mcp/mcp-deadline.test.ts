import { afterEach, describe, expect, it } from 'vitest'
import {
  MCP_DEADLINE_DEFAULT_MS,
  MCP_DEADLINE_MAX_MS,
  MCP_DEADLINE_MIN_MS,
  resolveMcpDeadline,
} from '../../../src/main/mcp/mcp-deadline'
import { runCliCaptured } from '../cli/run-cli'
import { connectMcpClient, type McpChild, startTestHub, type TestHub } from './test-hub'

let hub: TestHub | undefined
let child: McpChild | undefined
afterEach(async () => {
  await child?.close()
  await hub?.dispose()
  child = undefined
  hub = undefined
})

describe('the MCP clock (issue 24.2: its default and bounds were untested)', () => {
  it('answers within 45 s unless told otherwise, and takes 100 ms to 10 minutes', () => {
    expect(MCP_DEADLINE_DEFAULT_MS).toBe(45_000)
    expect(resolveMcpDeadline({})).toEqual({ ok: true, ms: 45_000 })
    expect(resolveMcpDeadline({ SHELLGATE_MCP_DEADLINE_MS: ' ' })).toEqual({ ok: true, ms: 45_000 })
    expect(resolveMcpDeadline({ SHELLGATE_MCP_DEADLINE_MS: '100' })).toEqual({ ok: true, ms: 100 })
    expect(resolveMcpDeadline({ SHELLGATE_MCP_DEADLINE_MS: '600000' })).toEqual({ ok: true, ms: 600_000 })
    expect([MCP_DEADLINE_MIN_MS, MCP_DEADLINE_MAX_MS]).toEqual([100, 600_000])
    for (const bad of ['99', '600001', '-1', '1e4', '45s', '0x10', '4.5', 'NaN', '99999999999999999999']) {
      const resolved = resolveMcpDeadline({ SHELLGATE_MCP_DEADLINE_MS: bad })
      expect(resolved, bad).toEqual({
        ok: false,
        message: `SHELLGATE_MCP_DEADLINE_MS must be whole milliseconds from 100 to 600000, got "${bad}"`,
      })
    }
  })

  it('`shellgate mcp` refuses an out-of-range deadline before it starts anything', async () => {
    for (const bad of ['600001', '99']) {
      const outcome = await runCliCaptured(['mcp'], {
        env: {
          PATH: process.env.PATH ?? '',
          SHELLGATE_MCP_DEADLINE_MS: bad,
          SHELLGATE_HOME: '/nonexistent/sg',
        },
      })
      expect(outcome.code).toBe(2)
      expect(outcome.stderr).toBe(
        `shellgate mcp: SHELLGATE_MCP_DEADLINE_MS must be whole milliseconds from 100 to 600000, got "${bad}"\n`,
      )
    }
  })

  it.each([
    [undefined, 45_000],
    [600_000, 600_000],
  ])(
    'a bash call sent with SHELLGATE_MCP_DEADLINE_MS=%s reaches the hub with answerWithinMs %i',
    async (env, expected) => {
      const seen: unknown[] = []
      hub = await startTestHub({
        onAgentRequest: ({ method, params }) => {
          if (method === 'bash.run') seen.push(params)
        },
      })
      child = await connectMcpClient(hub, env === undefined ? {} : { deadlineMs: env })
      await child.client.callTool({ name: 'bash', arguments: { command: 'true' } })
      expect(seen).toEqual([expect.objectContaining({ answerWithinMs: expected, command: 'true' })])
    },
  )
})
