import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { connectLoopback } from '../../../src/main/transports/loopback'
import { createClient } from '../../../src/shared/ipc/client'
import { contract } from '../../../src/shared/ipc/contract'
import { waitFor } from '../core/workbench/core-harness'
import { connectMcpClient, type McpChild, startTestHub, type TestHub, textOf } from './test-hub'

let hub: TestHub | null = null
const children: McpChild[] = []
afterEach(async () => {
  for (const child of children.splice(0)) await child.close().catch(() => undefined)
  if (hub) await hub.host.core.tasks.stopAll('user')
  await hub?.dispose()
  hub = null
})

async function agent() {
  hub = await startTestHub()
  const child = await connectMcpClient(hub, { deadlineMs: 30_000 })
  children.push(child)
  return { client: child.client, hub }
}

/** The person allows the next card in the hub, as the desk does; returns it. */
async function allowNextCard(h: TestHub) {
  const card = await waitFor(() => h.host.core.approvals.list()[0], 'the approval card', 20_000)
  await h.ui.request('approvals.answer', { id: card.id, answer: { kind: 'allow_once' } })
  return card
}

const structured = (result: unknown) =>
  (result as { structuredContent: Record<string, unknown> }).structuredContent

// Each test spawns `shellgate mcp` under tsx: seconds of startup on a busy machine.
describe('terminal tasks through the MCP SDK client (issue 23)', { timeout: 90_000 }, () => {
  it('answers a read -p prompt: bash {tty} → task_input y\\n → task_output {since, wait_for}', async () => {
    const { client, hub: h } = await agent()
    const started = client.callTool({
      name: 'bash',
      arguments: { command: 'read -r -p "Overwrite? [y/N] " a; echo "chose=$a"', tty: true },
    })
    const card = await allowNextCard(h)
    expect(card.terminal?.note).toMatch(/type into it for as long as it runs/)
    const result = await started
    const taskId = structured(result).taskId as string
    expect(textOf(result)).toContain('Overwrite? [y/N]')
    expect(textOf(result)).toContain('task_input')

    const typed = await client.callTool({ name: 'task_input', arguments: { task_id: taskId, text: 'y\n' } })
    expect(typed.isError).toBe(false)
    const cursor = structured(typed).output_cursor as number
    const read = await client.callTool({
      name: 'task_output',
      arguments: { task_id: taskId, since: cursor, wait_for: '^chose=' },
    })
    expect(textOf(read)).toContain('chose=y')
    expect(textOf(read)).not.toMatch(/\r|\u001b/)
    expect(structured(read)).toMatchObject({ task: { tty: true } })
  })

  it('drives python3 -i: the card names the interpreter; each answer is read after its prompt', async () => {
    const { client, hub: h } = await agent()
    const started = client.callTool({
      name: 'bash',
      arguments: { command: 'python3 -i -q', tty: true, wait_for: '>>> $' },
    })
    const card = await allowNextCard(h)
    expect(card.terminal?.interpreter).toBe('python3 (an interpreter)')
    const result = await started
    expect(textOf(result)).toMatch(/Ready: the output matched ">>> "/)
    const taskId = structured(result).taskId as string
    for (const [line, answer] of [
      ['x = 6 * 7', null],
      ['print(x + 1)', '^43$'],
      ['print("ok" * 2)', '^okok$'],
    ] as const) {
      const typed = await client.callTool({
        name: 'task_input',
        arguments: { task_id: taskId, text: `${line}\n` },
      })
      const cursor = structured(typed).output_cursor as number
      const read = await client.callTool({
        name: 'task_output',
        arguments: { task_id: taskId, since: cursor, wait_for: answer ?? '>>> $' },
      })
      if (answer) expect((structured(read).task as { matched: string }).matched).toBe(answer.slice(1, -1))
    }
    const ended = await client.callTool({
      name: 'task_input',
      arguments: { task_id: taskId, text: '', close_stdin: true },
    })
    expect(ended.isError).toBe(false)
    const done = await client.callTool({
      name: 'task_output',
      arguments: { task_id: taskId, timeout: 15_000 },
    })
    expect(textOf(done)).toMatch(new RegExp(`Task ${taskId} completed with exit code 0`))
  })

  it('a password typed at getpass is hidden: the tool says so, and no log has it', async () => {
    const { client, hub: h } = await agent()
    const started = client.callTool({
      name: 'bash',
      arguments: {
        command: `python3 -c 'import getpass; p = getpass.getpass("Password: "); print("length=%d" % len(p))'`,
        tty: true,
        wait_for: 'Password: ',
      },
    })
    await allowNextCard(h)
    const taskId = structured(await started).taskId as string
    const typed = await client.callTool({
      name: 'task_input',
      arguments: { task_id: taskId, text: 'sw0rdfish-secret\n' },
    })
    expect(structured(typed)).toMatchObject({ hidden: true })
    expect(textOf(typed)).toMatch(/not echoing/)
    const read = await client.callTool({
      name: 'task_output',
      arguments: { task_id: taskId, timeout: 15_000 },
    })
    expect(textOf(read)).toContain('length=16')
    await waitFor(
      () => readFileSync(join(h.home, 'audit.jsonl'), 'utf8').includes('"hidden":true'),
      'the audit line',
    )
    expect(readFileSync(join(h.home, 'audit.jsonl'), 'utf8')).not.toContain('sw0rdfish')
    expect(readFileSync(h.host.core.tasks.get(taskId)!.outputPath, 'utf8')).not.toContain('sw0rdfish')
  })

  it('refuses input to a piped task and an agent opening a port, each with a reason', async () => {
    const { client, hub: h } = await agent()
    await h.ui.request('settings.setMode', { mode: 'yolo' })
    const piped = await client.callTool({
      name: 'bash',
      arguments: { command: 'sleep 30', run_in_background: true },
    })
    const taskId = structured(piped).taskId as string
    const refused = await client.callTool({ name: 'task_input', arguments: { task_id: taskId, text: 'x' } })
    expect(refused.isError).toBe(true)
    expect(textOf(refused)).toMatch(/has no terminal.*tty: true/)
    const badPattern = await client.callTool({
      name: 'task_output',
      arguments: { task_id: taskId, wait_for: '(?<=a)b' },
    })
    expect(badPattern.isError).toBe(true)
    expect(textOf(badPattern)).toMatch(/RE2 syntax/)

    // The contract itself: an agent's connection may not open a port, read the input log or resize.
    const asAgent = createClient(contract, connectLoopback(h.host.dispatcher, h.host.hub, 'agent').transport)
    const sessionId = h.host.core.tasks.get(taskId)!.sessionId
    for (const [method, input] of [
      ['tasks.openPort', { sessionId, taskId, port: 5173 }],
      ['tasks.inputs', { sessionId, taskId }],
      ['tasks.resize', { sessionId, taskId, cols: 80, rows: 24 }],
      ['tasks.terminalRead', { sessionId, taskId }],
    ] as const) {
      await expect(asAgent.request(method, input as never), method).rejects.toMatchObject({ code: 'denied' })
    }
  })
})
