import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { offline, realCliOrWhyNot, skipWithReason } from './real-clis'
import { CLI_ENTRY, startTestHub, type TestHub, TSX_LOADER } from './test-hub'

const run = promisify(execFile)

let hub: TestHub | null = null
afterEach(async () => {
  await hub?.dispose()
  hub = null
})

describe('npx @modelcontextprotocol/inspector --cli', () => {
  it('calls shellgate mcp tools/call bash and gets the output', { timeout: 300_000 }, async (context) => {
    const inspector = await realCliOrWhyNot('inspector')
    if ('skip' in inspector) return skipWithReason(context, inspector.skip)
    hub = await startTestHub()
    const [command, argv] = offline(inspector.bin, [
      '--cli',
      '-e',
      `SHELLGATE_HOME=${hub.home}`,
      '-e',
      'SHELLGATE_NO_OPEN=1',
      '--cwd',
      hub.workspace,
      '--method',
      'tools/call',
      '--tool-name',
      'bash',
      '--tool-arg',
      'command=echo via the inspector',
      '--',
      process.execPath,
      '--import',
      TSX_LOADER,
      CLI_ENTRY,
      'mcp',
    ])
    const { stdout } = await run(command, argv, {
      timeout: 120_000,
      env: { PATH: process.env.PATH ?? '', HOME: hub.home },
    })
    const result = JSON.parse(stdout.slice(stdout.indexOf('{')))
    expect(result).toMatchObject({
      content: [{ type: 'text', text: 'via the inspector' }],
      structuredContent: { status: 'completed', exitCode: 0 },
      isError: false,
    })
  })
})
