import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { CLI_ENTRY, startTestHub, type TestHub, TSX_LOADER } from './test-hub'

const run = promisify(execFile)
/** Pinned: the CLI's flags are what this test speaks. */
const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0'
const CACHE =
  process.env.SHELLGATE_TEST_CACHE ?? join(homedir(), '.cache', 'shellgate-test-clis', 'inspector')
const BIN = join(CACHE, 'node_modules', '.bin', 'mcp-inspector')

let hub: TestHub | null = null
afterEach(async () => {
  await hub?.dispose()
  hub = null
})

/**
 * The Inspector is a 110 MB install, so it is never a dependency: it is installed on demand into a
 * cache folder when SHELLGATE_TEST_INSTALL_CLIS=1, and the test is skipped, with the reason, when
 * it is not there or the registry cannot be reached.
 */
async function inspectorOrWhyNot(): Promise<{ bin: string } | { skip: string }> {
  if (existsSync(BIN)) return { bin: BIN }
  if (process.env.SHELLGATE_TEST_INSTALL_CLIS !== '1') {
    return { skip: `${INSPECTOR} is not in ${CACHE}; set SHELLGATE_TEST_INSTALL_CLIS=1 to install it there` }
  }
  await mkdir(CACHE, { recursive: true })
  try {
    await run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', CACHE, INSPECTOR], {
      timeout: 240_000,
    })
  } catch (error) {
    return {
      skip: `the npm registry could not be reached to install ${INSPECTOR}: ${(error as Error).message.split('\n')[0]}`,
    }
  }
  return existsSync(BIN) ? { bin: BIN } : { skip: `${INSPECTOR} installed without its mcp-inspector binary` }
}

describe('npx @modelcontextprotocol/inspector --cli', () => {
  it('calls shellgate mcp tools/call bash and gets the output', { timeout: 300_000 }, async (context) => {
    const inspector = await inspectorOrWhyNot()
    if ('skip' in inspector) {
      process.stderr.write(`skipped: ${inspector.skip}\n`)
      context.skip(inspector.skip)
      return
    }
    hub = await startTestHub()
    const { stdout } = await run(
      inspector.bin,
      [
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
      ],
      { timeout: 120_000, env: { PATH: process.env.PATH ?? '', HOME: hub.home } },
    )
    const result = JSON.parse(stdout.slice(stdout.indexOf('{')))
    expect(result).toMatchObject({
      content: [{ type: 'text', text: 'via the inspector' }],
      structuredContent: { status: 'completed', exitCode: 0 },
      isError: false,
    })
  })
})
