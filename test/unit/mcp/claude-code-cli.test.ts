import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { CLI_ENTRY, startTestHub, type TestHub, TSX_LOADER } from './test-hub'

const run = promisify(execFile)
/** The version whose behaviour issue 11 was checked against. */
const CLAUDE = '@anthropic-ai/claude-code@2.1.332'
const CACHE = join(
  process.env.SHELLGATE_TEST_CACHE_ROOT ?? join(homedir(), '.cache', 'shellgate-test-clis'),
  'claude-code',
)
const BIN = join(CACHE, 'node_modules', '.bin', 'claude')
/** Claude Code stays offline: no updater, no telemetry, no traffic it does not need. */
const OFFLINE = {
  DISABLE_AUTOUPDATER: '1',
  DISABLE_TELEMETRY: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
}

let hub: TestHub | null = null
let configDir: string | null = null
afterEach(async () => {
  await hub?.dispose()
  hub = null
  if (configDir) await rm(configDir, { recursive: true, force: true })
  configDir = null
})

/** Never a dependency of the product: installed on demand into a cache folder (~380 MB). */
async function claudeOrWhyNot(): Promise<{ bin: string } | { skip: string }> {
  if (existsSync(BIN)) return { bin: BIN }
  if (process.env.SHELLGATE_TEST_INSTALL_CLIS !== '1') {
    return { skip: `${CLAUDE} is not in ${CACHE}; set SHELLGATE_TEST_INSTALL_CLIS=1 to install it there` }
  }
  await mkdir(CACHE, { recursive: true })
  try {
    await run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', CACHE, CLAUDE], {
      timeout: 280_000,
    })
  } catch (error) {
    return {
      skip: `the npm registry could not be reached to install ${CLAUDE}: ${(error as Error).message.split('\n')[0]}`,
    }
  }
  return existsSync(BIN) ? { bin: BIN } : { skip: `${CLAUDE} installed without its claude binary` }
}

describe('the real Claude Code', () => {
  it('`claude mcp list` with a temp CLAUDE_CONFIG_DIR reports shellgate connected', {
    timeout: 300_000,
  }, async (context) => {
    const claude = await claudeOrWhyNot()
    if ('skip' in claude) {
      process.stderr.write(`skipped: ${claude.skip}\n`)
      context.skip(claude.skip)
      return
    }
    hub = await startTestHub()
    configDir = await mkdtemp(join(tmpdir(), 'sg-claude-config-'))
    await writeFile(
      join(configDir, '.claude.json'),
      JSON.stringify({
        mcpServers: {
          shellgate: {
            type: 'stdio',
            command: process.execPath,
            args: ['--import', TSX_LOADER, CLI_ENTRY, 'mcp'],
            env: { SHELLGATE_HOME: hub.home, SHELLGATE_NO_OPEN: '1' },
          },
        },
      }),
    )
    const { stdout } = await run(claude.bin, ['mcp', 'list'], {
      cwd: hub.workspace,
      timeout: 120_000,
      env: { PATH: process.env.PATH ?? '', HOME: configDir, CLAUDE_CONFIG_DIR: configDir, ...OFFLINE },
    })
    expect(stdout).toMatch(/^shellgate: .* - ✔ Connected$/m)
  })
})
