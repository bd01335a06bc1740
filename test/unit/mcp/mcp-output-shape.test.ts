import { afterEach, describe, expect, it } from 'vitest'
import { connectMcpClient, type McpChild, startTestHub, type TestHub, textOf } from './test-hub'

let hub: TestHub | null = null
let child: McpChild | null = null
afterEach(async () => {
  await child?.close().catch(() => undefined)
  child = null
  await hub?.dispose()
  hub = null
})

/**
 * Claude Code and Codex give their model a result's structuredContent instead of its text when
 * there is one (issue 20), so every result either has none or carries the text as `output`. The
 * SDK client checks each structuredContent against the tool's declared outputSchema once it has
 * listed the tools, so a result that broke its own schema fails the call here.
 */
function expectModelSeesText(result: Awaited<ReturnType<McpChild['client']['callTool']>>): string {
  const text = textOf(result)
  if (result.structuredContent !== undefined) {
    expect(result.structuredContent).toMatchObject({ output: text })
    expect(Object.keys(result.structuredContent ?? {})[0]).toBe('output')
  }
  return text
}

describe('every Shellgate MCP tool result gives the model its text', { timeout: 120_000 }, () => {
  it('bash (done, failed, backgrounded, waiting), task_output, list_tasks, check_command, task_stop and refusals', async () => {
    hub = await startTestHub()
    child = await connectMcpClient(hub, { deadlineMs: 1_500 })
    const { client } = child
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'bash',
      'check_command',
      'list_tasks',
      'task_input',
      'task_output',
      'task_stop',
    ])
    for (const tool of tools) {
      expect(tool.outputSchema, tool.name).toMatchObject({
        type: 'object',
        required: expect.arrayContaining(['output']),
      })
    }
    const call = async (name: string, args: Record<string, unknown>) =>
      expectModelSeesText(await client.callTool({ name, arguments: args }))

    expect(await call('bash', { command: 'printf "out-%s" put' })).toBe('out-put')
    expect(await call('bash', { command: 'ls no-such-dir' })).toMatch(/^Exit code 2/)
    const background = await call('bash', { command: 'printf bg-done', run_in_background: true })
    const taskId = background.match(/running in background with ID: ([\w-]+)/)?.[1]
    expect(taskId).toBeDefined()
    expect(await call('task_output', { task_id: taskId, timeout: 10_000 })).toContain('bg-done')
    expect(await call('list_tasks', {})).toContain(taskId)
    expect(await call('check_command', { command: 'rm -rf build' })).toMatch(/would wait for the person/)

    const waiting = await call('bash', { command: 'touch later' })
    const promised = waiting.match(/it will run as task ([\w-]+)/)?.[1]
    expect(promised).toBeDefined()
    expect(await call('task_output', { task_id: promised, block: false })).toMatch(/still waiting/)
    expect(await call('task_stop', { task_id: promised })).toMatch(/withdrawn/)

    const unknown = await client.callTool({ name: 'task_output', arguments: { task_id: 'no-such-task' } })
    expect(unknown.isError).toBe(true)
    expect(expectModelSeesText(unknown)).toMatch(/no-such-task/)
    const invalid = await client.callTool({ name: 'bash', arguments: { command: '' } })
    expect(invalid.isError).toBe(true)
    expect(expectModelSeesText(invalid)).toMatch(/command is empty/)
  })
})
