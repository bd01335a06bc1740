import { isPidGone as isGone } from '../core/exec/process-checks'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Session } from '../../../src/shared/ipc/domains/sessions'
import { waitFor } from '../core/workbench/core-harness'
import { connectMcpClient, type McpChild, startTestHub, type TestHub, textOf } from './test-hub'

let hub: TestHub | null = null
const children: McpChild[] = []
afterEach(async () => {
  for (const child of children.splice(0)) await child.close().catch(() => undefined)
  await hub?.dispose()
  hub = null
})

async function agent(options: Parameters<typeof connectMcpClient>[1] = {}): Promise<McpChild> {
  if (!hub) hub = await startTestHub()
  const child = await connectMcpClient(hub, options)
  children.push(child)
  return child
}

function pidIn(workspace: string, file: string): Promise<number> {
  return waitFor(() => {
    try {
      return Number(readFileSync(join(workspace, file), 'utf8').trim()) || null
    } catch {
      return null
    }
  }, file)
}

const pendingApproval = (h: TestHub) =>
  waitFor(() => h.host.core.approvals.list()[0], 'a pending approval', 20_000)

// Each test spawns `shellgate mcp` under tsx: seconds of startup on a busy machine.
describe('shellgate mcp with the MCP SDK client over stdio', { timeout: 90_000 }, () => {
  it('lists the six tools with their annotations, and each one answers', async () => {
    const { client } = await agent({ name: 'claude-code', version: '2.1.332' })
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'bash',
      'check_command',
      'list_tasks',
      'task_input',
      'task_output',
      'task_stop',
    ])
    const byName = new Map(tools.map((tool) => [tool.name, tool]))
    expect(byName.get('bash')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true })
    for (const name of ['check_command', 'list_tasks', 'task_output']) {
      expect(byName.get(name)?.annotations?.readOnlyHint).toBe(true)
    }
    expect(byName.get('bash')?.inputSchema.properties).toHaveProperty('run_in_background')
    expect(byName.get('bash')?.description).toContain('task_output')

    const ran = await client.callTool({ name: 'bash', arguments: { command: 'echo hello; pwd' } })
    expect(ran.isError).toBe(false)
    expect(textOf(ran)).toBe(`hello\n${hub?.workspace}`)
    expect(ran.structuredContent).toMatchObject({ status: 'completed', exitCode: 0, taskId: null })

    // The session is named after clientInfo and the workspace, and labelled as the agent's.
    const sessions = await hub!.ui.request('sessions.list', {})
    const mine = sessions.find((session: Session) => session.agent?.name === 'claude-code')
    expect(mine).toMatchObject({
      agent: { name: 'claude-code', version: '2.1.332' },
      workspace: hub?.workspace,
    })
    expect(mine?.title).toMatch(/^claude-code 2\.1 · /)

    // Inside the workspace: a read outside it would ask first (issue 13 class 6).
    const failing = await client.callTool({ name: 'bash', arguments: { command: 'ls no-such-dir' } })
    expect(failing.isError).toBe(true)
    expect(textOf(failing)).toMatch(/^Exit code 2/)

    const check = await client.callTool({ name: 'check_command', arguments: { command: 'rm -rf build' } })
    expect(check.isError).toBe(false)
    expect(textOf(check)).toMatch(/would wait for the person's approval/)
    expect(check.structuredContent).toMatchObject({ wouldDo: 'ask', readOnly: false })
    expect(hub!.host.core.approvals.list()).toEqual([])

    const background = await client.callTool({
      name: 'bash',
      arguments: { command: 'sleep 0.3; echo from the background', run_in_background: true },
    })
    const taskId = (background.structuredContent as { taskId: string }).taskId
    expect(textOf(background)).toContain(`Command running in background with ID: ${taskId}`)
    const listed = await client.callTool({ name: 'list_tasks', arguments: {} })
    expect(textOf(listed)).toContain(taskId)
    const output = await client.callTool({
      name: 'task_output',
      arguments: { task_id: taskId, timeout: 10_000 },
    })
    expect(textOf(output)).toBe(`Task ${taskId} completed with exit code 0.\nfrom the background\n`)

    const long = await client.callTool({
      name: 'bash',
      arguments: { command: 'sleep 300', run_in_background: true },
    })
    const longId = (long.structuredContent as { taskId: string }).taskId
    const stopped = await client.callTool({ name: 'task_stop', arguments: { task_id: longId } })
    expect(stopped.isError).toBe(false)
    expect(textOf(stopped)).toMatch(`Task ${longId} stopped`)
    expect(hub!.host.core.tasks.get(longId)).toMatchObject({ status: 'stopped', stoppedBy: 'caller' })
  })

  it('a writer approved in the hub as the UI does it returns its output; a denial returns the message', async () => {
    const { client } = await agent({ deadlineMs: 20_000 })
    const approved = client.callTool({
      name: 'bash',
      arguments: { command: 'touch made-by-mcp && echo written', description: 'Create a file' },
    })
    const card = await pendingApproval(hub!)
    expect(card).toMatchObject({ command: 'touch made-by-mcp && echo written', description: 'Create a file' })
    await hub!.ui.request('approvals.answer', { id: card.id, answer: { kind: 'allow_once' } })
    const result = await approved
    expect(result.isError).toBe(false)
    expect(textOf(result)).toBe('written')
    expect(existsSync(join(hub!.workspace, 'made-by-mcp'))).toBe(true)

    const denied = client.callTool({ name: 'bash', arguments: { command: 'touch never-by-mcp' } })
    const second = await pendingApproval(hub!)
    await hub!.ui.request('approvals.answer', {
      id: second.id,
      answer: { kind: 'deny', message: 'use the build script instead' },
    })
    const refused = await denied
    expect(refused.isError).toBe(true)
    expect(textOf(refused)).toBe('use the build script instead')
    expect(existsSync(join(hub!.workspace, 'never-by-mcp'))).toBe(false)
  })

  it('a 90 s command answers inside the deadline as a task, and its output is read later', async () => {
    const { client } = await agent({ deadlineMs: 1_500 })
    await hub!.ui.request('settings.setMode', { mode: 'yolo' })
    const result = await client.callTool({
      name: 'bash',
      arguments: { command: 'for i in 1 2 3 4; do sleep 0.5; echo tick $i; done', timeout: 90_000 },
    })
    const taskId = (result.structuredContent as { taskId: string | null }).taskId
    expect(result.structuredContent).toMatchObject({ status: 'backgrounded' })
    expect(taskId).toEqual(expect.any(String))
    expect(textOf(result)).toContain('still running when this call had to answer')
    // Each read answers within the deadline too; ask again until it is done.
    let text = ''
    for (let attempt = 0; attempt < 10 && !text.includes('completed'); attempt++) {
      text = textOf(await client.callTool({ name: 'task_output', arguments: { task_id: taskId } }))
    }
    expect(text).toBe(`Task ${taskId} completed with exit code 0.\ntick 1\ntick 2\ntick 3\ntick 4\n`)

    // A call still waiting for the person at the deadline answers with the task it will run as.
    await hub!.ui.request('settings.setMode', { mode: 'build' })
    const waiting = await client.callTool({ name: 'bash', arguments: { command: 'touch later-by-mcp' } })
    const promised = (waiting.structuredContent as { taskId: string }).taskId
    expect(textOf(waiting)).toMatch(
      `Waiting for your approval in Shellgate — it will run as task ${promised}.`,
    )
    const card = await pendingApproval(hub!)
    await hub!.ui.request('approvals.answer', { id: card.id, answer: { kind: 'allow_once' } })
    let read = ''
    for (let attempt = 0; attempt < 10 && !read.includes('completed'); attempt++) {
      read = textOf(await client.callTool({ name: 'task_output', arguments: { task_id: promised } }))
    }
    expect(read).toBe(`Task ${promised} completed with exit code 0.`)
    expect(existsSync(join(hub!.workspace, 'later-by-mcp'))).toBe(true)

    // task_stop on a task still waiting for the person withdraws its card: it never runs.
    const pending = await client.callTool({ name: 'bash', arguments: { command: 'touch withdrawn-by-mcp' } })
    const withdrawnId = (pending.structuredContent as { taskId: string }).taskId
    await pendingApproval(hub!)
    const stopped = await client.callTool({ name: 'task_stop', arguments: { task_id: withdrawnId } })
    expect(textOf(stopped)).toBe(
      `Task ${withdrawnId} was withdrawn before the person answered; it will not run.`,
    )
    await waitFor(() => hub?.host.core.approvals.list().length === 0, 'the card to go')
    const after = await client.callTool({ name: 'task_output', arguments: { task_id: withdrawnId } })
    expect(after.structuredContent).toMatchObject({ task: { status: 'withdrawn' } })
    expect(textOf(after)).toMatch(`Task ${withdrawnId} withdrawn.`)
    expect(existsSync(join(hub!.workspace, 'withdrawn-by-mcp'))).toBe(false)
  })

  it('notifications/cancelled kills the call and its whole tree; progress rises while it runs', async () => {
    const { client } = await agent({ deadlineMs: 30_000 })
    // Pids are read with $! and $$, which inside the sandbox's PID namespace are no host pids;
    // the sandboxed tree kill has its own test (core/sandbox/executor-inside.test.ts).
    await hub!.host.core.settings.updateUser({ sandbox: { mode: 'off' } })
    await hub!.ui.request('settings.setMode', { mode: 'yolo' })
    const controller = new AbortController()
    const progress: { progress: number; message?: string }[] = []
    const call = client.callTool(
      {
        name: 'bash',
        arguments: { command: 'sleep 300 & echo $! > child.pid; while :; do echo working; sleep 0.2; done' },
      },
      undefined,
      { signal: controller.signal, onprogress: (update) => progress.push(update), timeout: 60_000 },
    )
    const childPid = await pidIn(hub!.workspace, 'child.pid')
    await waitFor(() => progress.length >= 2, 'two progress notifications', 20_000)
    controller.abort()
    await expect(call).rejects.toThrow()
    await waitFor(() => isGone(childPid), 'the background child of the cancelled call to die')
    const values = progress.map((update) => update.progress)
    expect(values).toEqual([...values].sort((a, b) => a - b))
    expect(new Set(values).size).toBe(values.length)
    expect(progress.at(-1)?.message).toMatch(/^running \d+s, \d+ bytes of output: working$/)
  })

  it('two agents at once each get their own session and cannot touch each other’s tasks', async () => {
    const first = await agent({ name: 'codex', version: '0.171.0' })
    const second = await agent({ name: 'gemini-cli', version: '0.61.2' })
    const started = await first.client.callTool({
      name: 'bash',
      arguments: { command: 'sleep 300', run_in_background: true },
    })
    const taskId = (started.structuredContent as { taskId: string }).taskId
    await second.client.callTool({ name: 'bash', arguments: { command: 'echo second' } })
    const sessions = (await hub!.ui.request('sessions.list', {})).filter((session: Session) => session.agent)
    expect(sessions.map((session: Session) => session.agent?.name).sort()).toEqual(['codex', 'gemini-cli'])

    const foreignRead = await second.client.callTool({
      name: 'task_output',
      arguments: { task_id: taskId, block: false },
    })
    expect(foreignRead.isError).toBe(true)
    const foreignStop = await second.client.callTool({ name: 'task_stop', arguments: { task_id: taskId } })
    expect(foreignStop.isError).toBe(true)
    expect(hub!.host.core.tasks.get(taskId)?.status).toBe('running')
    expect(textOf(await second.client.callTool({ name: 'list_tasks', arguments: {} }))).toBe(
      'No background tasks in this session.',
    )
    await first.client.callTool({ name: 'task_stop', arguments: { task_id: taskId } })
  })

  it('the agent quitting cancels its foreground call; its background task keeps running in the hub', async () => {
    const child = await agent({ deadlineMs: 30_000 })
    // Pids are read with $! and $$, which inside the sandbox's PID namespace are no host pids;
    // the sandboxed tree kill has its own test (core/sandbox/executor-inside.test.ts).
    await hub!.host.core.settings.updateUser({ sandbox: { mode: 'off' } })
    await hub!.ui.request('settings.setMode', { mode: 'yolo' })
    const background = await child.client.callTool({
      name: 'bash',
      arguments: { command: 'echo $$ > bg.pid; exec sleep 300', run_in_background: true },
    })
    const taskId = (background.structuredContent as { taskId: string }).taskId
    void child.client
      .callTool({ name: 'bash', arguments: { command: 'echo $$ > fg.pid; exec sleep 300' } }, undefined, {
        timeout: 60_000,
      })
      .catch(() => undefined)
    const fgPid = await pidIn(hub!.workspace, 'fg.pid')
    const bgPid = await pidIn(hub!.workspace, 'bg.pid')
    await child.close()
    await waitFor(() => isGone(fgPid), 'the foreground command to die with its agent')
    expect(isGone(bgPid)).toBe(false)
    const tasks = await hub!.ui.request('tasks.list', {})
    expect(tasks.find((task) => task.id === taskId)?.status).toBe('running')
    await hub!.ui.request('tasks.stop', { taskId })
  })

  it('the workspace comes from the client’s MCP roots, and --name labels the agent', async () => {
    if (!hub) hub = await startTestHub()
    const root = join(hub.workspace, 'project root')
    mkdirSync(root)
    const { client } = await agent({ roots: [root], args: ['--name', 'my reviewer'] })
    expect(textOf(await client.callTool({ name: 'bash', arguments: { command: 'pwd' } }))).toBe(root)
    const session = (await hub.ui.request('sessions.list', {})).find((each: Session) => each.agent)
    expect(session).toMatchObject({ workspace: root, agent: { name: 'my reviewer', version: null } })
    expect(session?.title).toBe('my reviewer · project root')
  })

  it('bad input is an isError result with a clear message, nothing runs, and the server stays up', async () => {
    const { client } = await agent()
    await hub!.ui.request('settings.setMode', { mode: 'yolo' })
    const other = await hub!.host.core.sessions.create({ title: 'not the agent’s' })
    await hub!.host.core.settings.updateUser({ permissions: { mode: 'yolo' } })
    const othersTask = await hub!.host.core.bash.run(other.id, {
      command: 'sleep 300',
      run_in_background: true,
    })
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['bash', { command: 'touch x', bogus: 1 }, /Invalid input for bash: .*bogus/],
      ['bash', { command: 42 }, /Invalid input for bash: command/],
      ['bash', { command: 'touch x', timeout: 600_001 }, /timeout is at most 600000/],
      ['bash', { command: 'touch x', timeout: -1 }, /timeout must be ≥ 0/],
      ['bash', { command: `touch ${'x'.repeat(100_001)}` }, /command is over 100000 characters/],
      ['task_output', { task_id: 'nope-nope' }, /No background task found with ID: nope-nope/],
      ['task_output', { task_id: othersTask.taskId }, /not one this connection created|No background task/],
      [
        'task_stop',
        { task_id: othersTask.taskId },
        /not one of this connection's sessions|No background task/,
      ],
      ['task_output', { task_id: 'x', timeout: 700_000 }, /timeout is at most 600000/],
      ['no_such_tool', {}, /Unknown tool "no_such_tool"/],
    ]
    for (const [name, args, message] of cases) {
      const result = await client.callTool({ name, arguments: args })
      expect(result.isError, `${name} ${JSON.stringify(args).slice(0, 80)}`).toBe(true)
      expect(textOf(result)).toMatch(message)
    }
    expect(existsSync(join(hub!.workspace, 'x'))).toBe(false)
    expect(hub!.host.core.tasks.get(othersTask.taskId!)?.status).toBe('running')
    expect(textOf(await client.callTool({ name: 'bash', arguments: { command: 'echo still up' } }))).toBe(
      'still up',
    )
    await hub!.host.core.tasks.stop(othersTask.taskId!, 'user')
  })
})
