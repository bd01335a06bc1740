import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '../core/workbench/core-harness'
import { connectMcpClient, type McpChild, startTestHub, type TestHub, textOf } from './test-hub'

let hub: TestHub | null = null
const children: McpChild[] = []
afterEach(async () => {
  for (const child of children.splice(0)) await child.close().catch(() => undefined)
  await hub?.dispose()
  hub = null
})

async function agent(name: string): Promise<McpChild> {
  if (!hub) hub = await startTestHub()
  const child = await connectMcpClient(hub, {
    name,
    version: '2.1.332',
    deadlineMs: 1_500,
    ownAgentProcess: true,
  })
  children.push(child)
  return child
}

/** The first run asks for `command`, is promised task T at its deadline, and quits before anyone answers. */
async function askAndQuit(command: string): Promise<string> {
  const first = await agent('claude-code')
  const answered = await first.client.callTool({ name: 'bash', arguments: { command } })
  const taskId = (answered.structuredContent as { taskId: string }).taskId
  expect(textOf(answered)).toContain(`it will run as task ${taskId}`)
  await first.close()
  // The first run's conversation ends; its card still waits for the person.
  await waitFor(async () => {
    const sessions = await hub!.ui.request('sessions.list', {})
    return sessions.find((s) => s.origin === 'agent')?.endedAt
  }, 'the first run to end')
  expect(hub!.host.core.approvals.list().map((card) => card.command)).toEqual([command])
  return taskId
}

describe('decisions survive the agent (issue 22.5), with the MCP SDK client over stdio', {
  timeout: 120_000,
}, () => {
  it("a later run of the same agent in the same folder reads the person's denial; another agent does not", async () => {
    const taskId = await askAndQuit('touch never-made')
    const [card] = hub!.host.core.approvals.list()
    await hub!.ui.request('approvals.answer', {
      id: card!.id,
      answer: { kind: 'deny', message: 'use `make build` instead' },
    })
    // Kept on disk, so a restart keeps it too.
    await waitFor(
      () => readFileSync(join(hub!.home, 'kept-decisions.json'), 'utf8').includes('use `make build` instead'),
      'the denial on disk',
    )

    const second = await agent('claude-code')
    const read = await second.client.callTool({ name: 'task_output', arguments: { task_id: taskId } })
    expect(read.isError).toBe(true)
    expect(textOf(read)).toContain('use `make build` instead')
    const listed = textOf(await second.client.callTool({ name: 'list_tasks', arguments: {} }))
    expect(listed).toContain(`${taskId}  denied`)
    expect(listed).toContain('the person said: use `make build` instead')
    expect(existsSync(join(hub!.workspace, 'never-made'))).toBe(false)

    const other = await agent('codex-mcp-client')
    const refused = await other.client.callTool({ name: 'task_output', arguments: { task_id: taskId } })
    expect(textOf(refused)).toMatch(/No background task found/)
    expect(textOf(await other.client.callTool({ name: 'list_tasks', arguments: {} }))).not.toContain(taskId)

    // Until the person clears it.
    await hub!.ui.request('tasks.clearDecision', { taskId })
    const cleared = await second.client.callTool({ name: 'task_output', arguments: { task_id: taskId } })
    expect(textOf(cleared)).toMatch(/No background task found/)
  })

  it('allowed after the first run quit, it runs as task T, and the next run reads its output', async () => {
    const taskId = await askAndQuit('touch made-later && echo ran-after-you-left')
    const [card] = hub!.host.core.approvals.list()
    await hub!.ui.request('approvals.answer', { id: card!.id, answer: { kind: 'allow_once' } })
    const second = await agent('claude-code')
    const read = await second.client.callTool({ name: 'task_output', arguments: { task_id: taskId } })
    expect(textOf(read)).toContain('ran-after-you-left')
    expect(existsSync(join(hub!.workspace, 'made-later'))).toBe(true)
  })
})
