import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { ApprovalsPage } from './pages/approvals-page'
import { SessionPage } from './pages/session-page'
import { claudeCodeHook, clientShellTool } from './support/agent-hook'
import { type McpAgent, startMcpAgent } from './support/mcp-agent'
import { expect, test } from './support/fixtures'

/**
 * Issue 22.4 and 22.5 in the desk: one agent run is one conversation whichever door its calls use
 * (the real `shellgate hook claude-code` and the real `shellgate mcp`, matched by Claude Code's
 * session id), and what the person decided after a run ended reaches the agent's next run.
 */

const CLAUDE = { name: 'claude-code', version: '2.1.332' } as const
const claudeConversation = /^claude-code 2\.1\.332 · /

test("a Claude Code run's hook call and MCP call are one conversation; the hook's call is in its history while it waits and after it ran", async ({
  appPage,
  serve,
}) => {
  const runId = randomUUID()
  const agent = await startMcpAgent(serve, {
    ...CLAUDE,
    folder: 'app',
    env: { CLAUDE_CODE_SESSION_ID: runId },
    // Not the hook's parent: only Claude Code's session id can tell the hub they are one run.
    ownProcess: true,
  })
  try {
    const viaMcp = await agent.bash('echo via-mcp')
    expect(viaMcp.text).toContain('via-mcp')

    const command = 'touch hook-made && echo via-hook'
    const hookAnswer = claudeCodeHook(serve, {
      sessionId: runId,
      cwd: agent.workspace,
      command,
      description: 'make the marker',
    })
    const approvals = new ApprovalsPage(appPage)
    await approvals.card(command)

    const session = new SessionPage(appPage)
    await session.open()
    const runs = session.tabs().getByRole('button', { name: claudeConversation })
    await expect(runs).toHaveCount(1)
    await runs.click()
    const hookCall = session.call(command)
    await hookCall.waitForStatus('waiting_for_approval')
    await expect(hookCall.root.locator('[data-field="via"]')).toHaveText("via the agent's hook")
    await expect(session.call('echo via-mcp').root.locator('[data-field="via"]')).toHaveText('via MCP')

    await approvals.pressShortcut('1')
    const answer = await hookAnswer
    expect(answer.hookSpecificOutput?.permissionDecision).toBe('allow')
    const rewritten = answer.hookSpecificOutput?.updatedInput?.command ?? ''
    expect(rewritten).toMatch(/ ticket sgt_[\w-]+$/)
    expect(await clientShellTool(serve, rewritten, agent.workspace)).toBe('via-hook\n')
    expect(existsSync(join(agent.workspace, 'hook-made'))).toBe(true)

    await session.open()
    await expect(runs).toHaveCount(1)
    await runs.click()
    await hookCall.waitForStatus('completed')
    expect(await hookCall.content()).toContain('via-hook')
    await expect(session.history().getByRole('article')).toHaveCount(2)
    await expect(runs).toContainText('MCP and hook')
  } finally {
    await agent.close()
  }
})

test("the person's deny message, given after the agent's run ended, is read by its next run with task_output", async ({
  appPage,
  serve,
}) => {
  const agents: McpAgent[] = []
  try {
    const first = await startMcpAgent(serve, {
      ...CLAUDE,
      folder: 'api',
      deadlineMs: 1_500,
      ownProcess: true,
    })
    agents.push(first)
    const promised = await first.callTool('bash', { command: 'touch never-made' })
    const taskId = String(promised.structured?.taskId ?? '')
    expect(taskId).not.toBe('')
    expect(promised.text).toContain(`task ${taskId}`)
    await first.close()

    // The run ended with its card unanswered: it stays on top, saying so, until the person answers.
    const session = new SessionPage(appPage)
    await session.open()
    const firstRun = session.tabs().getByRole('button', { name: claudeConversation })
    await expect(firstRun).toContainText('ended, its next run reads your answer')
    const approvals = new ApprovalsPage(appPage)
    const card = await approvals.card('touch never-made')
    await approvals.pressShortcut('4')
    await card.messageField().fill('use `make build` instead')
    await card.messageField().press('Enter')
    await expect(approvals.cards()).toHaveCount(0)
    // Answered, the ended run folds away.
    await session.open()
    await expect(session.tabs().locator('details.ended-conversations summary')).toHaveText('Ended (1)')

    const next = await startMcpAgent(serve, { ...CLAUDE, folder: 'api', ownProcess: true })
    agents.push(next)
    const read = await next.callTool('task_output', { task_id: taskId })
    // A denial reaches the model as a refusal, with the person's words.
    expect(read.isError).toBe(true)
    expect(read.text).toContain('use `make build` instead')
    const listed = await next.callTool('list_tasks', {})
    expect(listed.text).toContain(`${taskId}  denied`)
    // Another agent in the same folder is not that run's successor.
    const other = await startMcpAgent(serve, {
      name: 'codex',
      version: '0.171.0',
      folder: 'api',
      ownProcess: true,
    })
    agents.push(other)
    expect((await other.callTool('task_output', { task_id: taskId })).text).toMatch(
      /No background task found/,
    )
    expect(existsSync(join(next.workspace, 'never-made'))).toBe(false)

    // Two runs, two conversations: the new one in view, the first folded among the ended.
    await session.open()
    await expect(session.tabs().getByRole('button', { name: claudeConversation })).toHaveCount(1)
    await expect(session.tabs().locator('details.ended-conversations li')).toHaveCount(1)
    await expect(session.tabs().locator('details.ended-conversations summary')).toHaveText('Ended (1)')
  } finally {
    await Promise.all(agents.map((agent) => agent.close()))
  }
})
