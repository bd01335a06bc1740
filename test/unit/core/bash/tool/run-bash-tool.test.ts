import { mkdir, mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runBashTool } from '../../../../../src/main/core/bash/tool/run-bash-tool'
import { sanitizeEntryEnv } from '../../../../../src/main/core/env/sanitize-entry'
import { createExecutionPort } from '../../../../../src/main/core/exec'
import { createShellSnapshotService } from '../../../../../src/main/core/shell/snapshot-service'
import type { ShellSelection } from '../../../../../src/main/core/shell/types'
import { verdictOf } from '../../permissions/verdict-fixture'

// A real bash through the real execution port, shell snapshot and cwd capture.
const shell: ShellSelection = {
  dialect: 'bash',
  path: '/bin/bash',
  source: 'system',
  reason: 'test',
  envOverlay: { GIT_EDITOR: 'true', SHELL: '/bin/bash' },
}

describe('runBashTool', () => {
  let root: string
  let workspace: string
  let dataDir: string
  let snapshots: ReturnType<typeof createShellSnapshotService>
  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'shellgate-run-')))
    workspace = join(root, 'ws')
    dataDir = join(root, 'home')
    await mkdir(join(workspace, 'sub'), { recursive: true })
    snapshots = createShellSnapshotService({ dataDir, platform: 'linux' })
  })
  afterAll(async () => {
    await snapshots.close()
    await rm(root, { recursive: true, force: true })
  })

  const run = (
    command: string,
    argvs: string[][],
    extra: { inlineLimit?: number; timeoutMs?: number; shell?: ShellSelection } = {},
  ) =>
    runBashTool({
      command,
      verdict: verdictOf(
        argvs.map((argv) => ({ argv })),
        { command },
      ),
      cwd: workspace,
      workspace,
      timeoutMs: extra.timeoutMs ?? 30_000,
      inlineLimit: extra.inlineLimit ?? 30_000,
      dataDir,
      runtimeEnv: sanitizeEntryEnv({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root }, 'linux'),
      platform: 'linux',
      shell: extra.shell ?? shell,
      snapshots,
      port: createExecutionPort({ platform: 'linux' }),
    })

  it('runs, shows the combined output, keeps no file for small output, and keeps a cwd inside the workspace', async () => {
    const outcome = await run('cd sub && echo out && echo err >&2', [
      ['cd', 'sub'],
      ['echo', 'out'],
    ])
    expect(outcome.result.status).toBe('completed')
    expect(outcome.content).toEqual({ blocks: [{ type: 'text', text: 'out\nerr' }], isError: false })
    expect(outcome.output.persistedPath).toBeNull()
    expect(outcome.cwd).toEqual({ cwd: join(workspace, 'sub'), reset: false, note: null })
    expect(await readdir(join(dataDir, 'exec', 'bash-output'))).toEqual([])
  })

  it.each([
    ['zsh', '/usr/bin/zsh', 'echo $ZSH_VERSION'],
    ['sh', '/bin/sh', 'echo sh-ran'],
  ] as const)('runs under %s too, with the same cwd capture', async (dialect, path, probe) => {
    const other: ShellSelection = {
      dialect,
      path,
      source: 'system',
      reason: 'test',
      envOverlay: { SHELL: path },
    }
    const outcome = await run(
      `cd sub && ${probe}`,
      [
        ['cd', 'sub'],
        ['echo', 'x'],
      ],
      { shell: other },
    )
    expect(outcome.result.status).toBe('completed')
    expect((outcome.content.blocks[0] as { text: string }).text).toMatch(
      dialect === 'zsh' ? /^\d+\.\d+/ : /^sh-ran$/,
    )
    expect(outcome.cwd.cwd).toBe(join(workspace, 'sub'))
  })

  it('a cwd outside the workspace is reset, with the note in the content', async () => {
    const outcome = await run(`cd ${root}`, [['cd', root]])
    expect(outcome.cwd.reset).toBe(true)
    expect(outcome.content.blocks).toEqual([{ type: 'text', text: `Shell cwd was reset to ${workspace}` }])
  })

  it('a non-zero exit is data: "Exit code N" for a failure, the meaning for grep finding nothing', async () => {
    const failed = await run('echo boom; exit 3', [
      ['echo', 'boom'],
      ['exit', '3'],
    ])
    expect(failed.result.exitCode).toBe(3)
    expect(failed.content).toEqual({ blocks: [{ type: 'text', text: 'Exit code 3\nboom' }], isError: true })
    const grep = await run('grep -q needle /dev/null', [['grep', '-q', 'needle', '/dev/null']])
    expect(grep.content).toEqual({ blocks: [{ type: 'text', text: 'No matches found' }], isError: false })
  })

  it('output over the inline limit is persisted and shown as the envelope; the file holds all of it', async () => {
    const outcome = await run('seq 1 5000', [['seq', '1', '5000']], { inlineLimit: 1_000 })
    const path = outcome.output.persistedPath as string
    expect(path).toContain(join(dataDir, 'exec', 'bash-output'))
    expect((outcome.content.blocks[0] as { text: string }).text).toContain(`Full output saved to: ${path}`)
    const full = await readFile(path, 'utf8')
    expect(full.split('\n').at(-2)).toBe('5000')
    expect(outcome.output.totalBytes).toBe(Buffer.byteLength(full))
  })

  it('refuses an empty command instead of starting a shell for it', async () => {
    await expect(run('   ', [])).rejects.toThrow('the command is empty')
  })

  it('a timeout is reported with the executor words', async () => {
    const outcome = await run('sleep 5', [['sleep', '5']], { timeoutMs: 300 })
    expect(outcome.result.status).toBe('timed_out')
    expect(outcome.content.isError).toBe(true)
    expect((outcome.content.blocks[0] as { text: string }).text).toContain('timed out')
  })
})
