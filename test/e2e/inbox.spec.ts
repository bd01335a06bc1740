import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { ApprovalsPage } from './pages/approvals-page'
import { SessionPage } from './pages/session-page'
import { type McpAgent, startMcpAgent } from './support/mcp-agent'
import { expect, test } from './support/fixtures'

/**
 * Issue 22.3, the inbox: every pending approval from every agent and the person, oldest first,
 * answered by key without moving the focus. Real `shellgate serve`, real MCP clients (the SDK's),
 * Debian's Chromium.
 */

const AGENTS = [
  { name: 'claude-code', version: '2.1.332', folder: 'api' },
  { name: 'codex', version: '0.171.0', folder: 'web' },
  { name: 'gemini-cli', version: '0.61.0', folder: 'docs' },
] as const

async function blurEverything(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  await expect(page.locator('body')).toBeFocused()
}

test('the inbox lists every agent’s and the person’s approvals oldest first; 1–3 answer the oldest with the focus nowhere, or the card the person picks', async ({
  appPage,
  serve,
}) => {
  const agents: McpAgent[] = []
  try {
    for (const agent of AGENTS) agents.push(await startMcpAgent(serve, agent))
    const approvals = new ApprovalsPage(appPage)
    // One after the other, so "oldest" is known: each card shows before the next is asked.
    const calls: Array<Promise<{ text: string; isError: boolean }>> = []
    for (const [index, agent] of agents.entries()) {
      calls.push(agent.bash(`touch by-agent-${index} && echo agent ${index} done`))
      await approvals.card(`touch by-agent-${index} && echo agent ${index} done`)
    }
    const session = new SessionPage(appPage)
    await session.runCommand('touch by-the-person')
    await approvals.card('touch by-the-person')
    await expect(approvals.cards()).toHaveCount(4)
    expect(
      await approvals.cards().evaluateAll((cards) => cards.map((c) => c.getAttribute('aria-label'))),
    ).toEqual(
      [0, 1, 2].map((i) => `touch by-agent-${i} && echo agent ${i} done`).concat('touch by-the-person'),
    )
    for (const [index, agent] of agents.entries())
      await expect(approvals.cards().nth(index)).toContainText(agent.name)

    // No focus anywhere: 1 allows the oldest, and its agent receives the output.
    await blurEverything(appPage)
    await approvals.pressShortcut('1')
    expect(await calls[0]).toEqual({ text: 'agent 0 done', isError: false })
    expect(existsSync(join(agents[0]!.workspace, 'by-agent-0'))).toBe(true)
    await expect(approvals.cards()).toHaveCount(3)

    // The person picks the third agent's card: the keys follow it, and 3 denies that one.
    const picked = approvals.screen().getByRole('article', { name: 'touch by-agent-2 && echo agent 2 done' })
    await picked.locator('dl').click()
    await expect(picked).toHaveAttribute('data-key-target', '')
    await approvals.pressShortcut('3')
    const denied = await calls[2]
    expect(denied.isError).toBe(true)
    expect(existsSync(join(agents[2]!.workspace, 'by-agent-2'))).toBe(false)

    // Back to the oldest waiting: the second agent's.
    await expect(approvals.keyTarget()).toHaveAccessibleName('touch by-agent-1 && echo agent 1 done')
    await approvals.pressShortcut('1')
    expect(await calls[1]).toEqual({ text: 'agent 1 done', isError: false })
    await expect(approvals.keyTarget()).toHaveAccessibleName('touch by-the-person')
  } finally {
    await Promise.all(agents.map((agent) => agent.close()))
  }
})

test('4 denies with a message: digits typed there stay text, Shift+Enter adds a line, Enter sends it to the agent', async ({
  appPage,
  serve,
}) => {
  const agent = await startMcpAgent(serve, AGENTS[0])
  try {
    const call = agent.bash('rm -rf build')
    const approvals = new ApprovalsPage(appPage)
    const card = await approvals.card('rm -rf build')
    await blurEverything(appPage)
    await approvals.pressShortcut('4')
    const message = card.messageField()
    await expect(message).toBeFocused()
    await expect(card.root.locator('[data-keys-state]')).toHaveAttribute('data-keys-state', 'typing')
    await appPage.keyboard.type('1 2 3 are not answers here')
    await appPage.keyboard.press('Shift+Enter')
    await appPage.keyboard.type('use make clean')
    await expect(message).toHaveValue('1 2 3 are not answers here\nuse make clean')
    await appPage.keyboard.press('Enter')
    expect(await call).toEqual({ text: '1 2 3 are not answers here\nuse make clean', isError: true })
    await expect(approvals.cards()).toHaveCount(0)
  } finally {
    await agent.close()
  }
})

test('after an answer the focus goes to the next card, and Esc stops (Ctrl+B backgrounds) the command just allowed', async ({
  appPage,
  serve,
}) => {
  const agent = await startMcpAgent(serve, AGENTS[1])
  const other = await startMcpAgent(serve, AGENTS[2])
  try {
    const approvals = new ApprovalsPage(appPage)
    const loop = 'while true; do echo tick; sleep 0.2; done'
    const looping = agent.bash(loop)
    await approvals.card(loop)
    const waiting = other.bash('touch still-waiting')
    await approvals.card('touch still-waiting')
    const first = approvals.screen().getByRole('article', { name: loop })
    await first.focus()
    await expect(first).toHaveAttribute('data-keys-armed', '')
    await appPage.keyboard.press('1')
    const next = approvals.screen().getByRole('article', { name: 'touch still-waiting' })
    await expect(next).toBeFocused()
    const allowed = approvals.screen().getByRole('region', { name: 'Just allowed' })
    await expect(allowed.locator('[data-field="status"]')).toHaveText('running')
    await appPage.keyboard.press('Escape')
    await expect(allowed.locator('[data-field="status"]')).toHaveText('cancelled')
    // What the model is told when the person stops its command: what it printed before the stop
    // (a tick or two when the stop comes after the first print), then that it was stopped.
    const told = await looping
    expect(told.isError).toBe(true)
    expect(told.text).toMatch(/^(tick\n)*<error>Command was aborted before completion<\/error>$/)
    // Esc answered nothing: the next card still waits, with the focus.
    await expect(next).toBeFocused()
    await expect(approvals.cards()).toHaveCount(1)

    const moved = 'while true; do echo moved; sleep 0.2; done'
    const backgrounded = agent.bash(moved)
    await approvals.card(moved)
    const movedCard = approvals.screen().getByRole('article', { name: moved })
    await movedCard.focus()
    await expect(movedCard).toHaveAttribute('data-keys-armed', '')
    await appPage.keyboard.press('1')
    await expect(allowed.locator('[data-field="status"]')).toHaveText('running')
    await appPage.keyboard.press('Control+B')
    expect((await backgrounded).text).toContain('Command running in background with ID:')
    await expect(allowed.locator('[data-field="status"]')).toHaveText('moved to background')
    await approvals.pressShortcut('3')
    expect((await waiting).isError).toBe(true)
  } finally {
    await Promise.all([agent.close(), other.close()])
  }
})

test('one agent’s flood is one folded group under its oldest card; another agent’s card stays in view', async ({
  appPage,
  serve,
}) => {
  const flooding = await startMcpAgent(serve, AGENTS[0])
  const other = await startMcpAgent(serve, AGENTS[1])
  try {
    const approvals = new ApprovalsPage(appPage)
    const floods = Array.from({ length: 6 }, (_, n) => flooding.bash(`touch flood-${n}`))
    for (let n = 0; n < 6; n++) await expect.poll(() => approvals.badgeCount()).toBeGreaterThanOrEqual(n + 1)
    const quiet = other.bash('touch from-the-other-agent')
    await approvals.card('touch from-the-other-agent')
    await expect.poll(() => approvals.badgeCount()).toBe(7)
    // Two cards and one folded row, not seven cards.
    await expect(approvals.cards()).toHaveCount(2)
    const folded = approvals.screen().getByTestId('folded-flood')
    await expect(folded).toContainText('5 more commands')
    await expect(folded).toContainText('claude-code 2.1.332')
    await expect(
      approvals.screen().getByRole('article', { name: 'touch from-the-other-agent' }),
    ).toBeInViewport()
    // Deny the folded five at once, after saying how many; the oldest card stays.
    await folded.getByRole('button', { name: 'Deny these 5…' }).click()
    await folded
      .getByRole('group', { name: 'Deny 5 more commands?' })
      .getByRole('button', { name: 'Deny 5' })
      .click()
    await expect(folded).toBeHidden()
    await expect(approvals.cards()).toHaveCount(2)
    const results = await Promise.all(floods.slice(1))
    expect(results.every((result) => result.isError)).toBe(true)
    await approvals.pressShortcut('3')
    expect((await floods[0])?.isError).toBe(true)
    await approvals.pressShortcut('1')
    expect((await quiet).isError).toBe(false)
  } finally {
    await Promise.all([flooding.close(), other.close()])
  }
})
