import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { CliIo } from '../../../src/main/cli/command'
import { runCli } from '../../../src/main/cli/main'
import { isGone, readPids } from '../core/exec/process-checks'

const ROOT = resolve(import.meta.dirname, '../../..')
const TREE = join(ROOT, 'test/fixtures/exec/tree.sh')
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shellgate-run-cli-'))
  dirs.push(dir)
  return dir
}

function io(overrides: Partial<CliIo> = {}) {
  const out = { stdout: '', stderr: '' }
  const value: CliIo = {
    stdout: (text) => {
      out.stdout += text
    },
    stderr: (text) => {
      out.stderr += text
    },
    stdin: null,
    env: { PATH: process.env.PATH, SHELLGATE_CLI_SECRET: 'do-not-leak' },
    cwd: ROOT,
    signal: new AbortController().signal,
    ...overrides,
  }
  return { io: value, out }
}

describe('shellgate run', () => {
  it('--json prints the structured result and exits with the child code', async () => {
    const { io: cli, out } = io()
    const code = await runCli(['run', '--json', '--', 'sh', '-c', 'echo hi; echo oops >&2; exit 3'], cli)
    expect(code).toBe(3)
    const result = JSON.parse(out.stdout)
    expect(result).toMatchObject({
      status: 'failed',
      exitCode: 3,
      exitSignal: null,
      stdout: 'hi\n',
      stderr: 'oops\n',
      truncated: false,
    })
    expect(typeof result.durationMs).toBe('number')
    expect(Object.keys(result).sort()).toEqual([
      'durationMs',
      'exitCode',
      'exitSignal',
      'status',
      'stderr',
      'stdout',
      'truncated',
    ])
  })

  it('without --json passes the streams through', async () => {
    const { io: cli, out } = io()
    const code = await runCli(['run', '--', 'sh', '-c', 'printf out; printf err >&2'], cli)
    expect(code).toBe(0)
    expect(out).toEqual({ stdout: 'out', stderr: 'err' })
  })

  it('the env is clean: PATH and --env only (plus the run tag)', async () => {
    const { io: cli, out } = io()
    await runCli(['run', '--json', '--env', 'A=1', '--env', 'B=x=y', '--', 'env'], cli)
    const lines: string[] = JSON.parse(out.stdout).stdout.trim().split('\n')
    expect(lines.map((line) => line.split('=')[0]).sort()).toEqual(['A', 'B', 'PATH', 'SHELLGATE_RUN_ID'])
    expect(lines).toContain('B=x=y')
    expect(out.stdout).not.toContain('do-not-leak')
  })

  it('--cwd, --max-output and --timeout', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'here'), '')
    const listed = io()
    expect(await runCli(['run', '--json', '--cwd', dir, '--max-output', '3', '--', 'ls'], listed.io)).toBe(0)
    expect(JSON.parse(listed.out.stdout)).toMatchObject({ stdout: 'her', truncated: true })

    const slow = io()
    expect(await runCli(['run', '--timeout', '200', '--', 'sleep', '30'], slow.io)).toBe(124)
    expect(slow.out.stderr).toBe('shellgate run: Command timed out after 200ms\n')
  })

  it('spawn failure exits 127, a signal death 128+N', async () => {
    const missing = io()
    expect(await runCli(['run', '--json', '--', join(tempDir(), 'nope')], missing.io)).toBe(127)
    expect(JSON.parse(missing.out.stdout)).toMatchObject({
      status: 'spawn_error',
      error: { code: 'ENOENT', message: expect.stringContaining('ENOENT') },
    })
    const killed = io()
    expect(await runCli(['run', '--', 'sh', '-c', 'kill -KILL $$'], killed.io)).toBe(137)
  })

  it('cancelling through io.signal kills the tree and exits 130', async () => {
    const pidFile = join(tempDir(), 'pids')
    const controller = new AbortController()
    const { io: cli, out } = io({ signal: controller.signal })
    const pending = runCli(['run', '--json', '--', 'sh', TREE, pidFile], cli)
    const pids = await readPids(pidFile, 6)
    controller.abort()
    expect(await pending).toBe(130)
    expect(JSON.parse(out.stdout).status).toBe('cancelled')
    expect(pids.filter((pid) => !isGone(pid))).toEqual([])
  })

  it.each([
    [['run'], /missing program/],
    [['run', 'ls'], /put the program after --/],
    [['run', '--timeout', 'soon', '--', 'ls'], /--timeout must be a whole number/],
    [['run', '--max-output', '-1', '--', 'ls'], /--max-output/],
    [['run', '--max-output', '1.5', '--', 'ls'], /--max-output must be a whole number/],
    [['run', '--cwd', '/no/such/dir', '--', 'ls'], /--cwd \/no\/such\/dir does not exist/],
    [['run', '--env', 'NOVALUE', '--', 'ls'], /--env expects NAME=VALUE/],
    [['run', '--bogus', '--', 'ls'], /bogus/],
  ])('bad usage %j: one line on stderr, exit 2', async (argv, message) => {
    const { io: cli, out } = io()
    expect(await runCli(argv, cli)).toBe(2)
    expect(out.stdout).toBe('')
    expect(out.stderr).toMatch(message)
    expect(out.stderr.trimEnd().split('\n')).toHaveLength(1)
  })

  it('--help says the env is clean and lists the exit codes', async () => {
    const { io: cli, out } = io()
    expect(await runCli(['run', '--help'], cli)).toBe(0)
    expect(out.stdout).toMatch(/only PATH/)
    expect(out.stdout).toMatch(/124 on timeout/)
    expect(out.stdout).toMatch(/130 when cancelled/)
    expect(out.stdout).toMatch(/127 when FILE could not be started/)
  })

  it('SIGTERM to the real CLI process cancels the run and kills its tree before it exits', async () => {
    const pidFile = join(tempDir(), 'pids')
    // One process (node with the tsx loader) rather than `npx tsx`, so SIGTERM reaches the CLI itself.
    const cli = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/main/cli.ts', 'run', '--', 'sh', TREE, pidFile],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH },
      },
    )
    let stderr = ''
    cli.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    const exited = new Promise<number | null>((resolveExit) => cli.once('exit', (code) => resolveExit(code)))
    const pids = await readPids(pidFile, 6, 20_000)
    cli.kill('SIGTERM')
    expect(await exited).toBe(130)
    expect(stderr).toContain('Command was cancelled')
    expect(pids.filter((pid) => !isGone(pid))).toEqual([])
  })
})
