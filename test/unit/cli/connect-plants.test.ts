import { execFileSync } from 'node:child_process'
import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { shellgateBinDir } from './shellgate-on-path'
import { runCliCaptured } from './run-cli'

// `connect --write` writes next to the config it edits: the backup. Whoever can put a file there
// (an agent with its own file tools, a planted dotfile directory) must not turn that write into a
// write somewhere else, or into a process that never returns.

let binDir: string
beforeAll(async () => {
  binDir = await shellgateBinDir()
})
afterAll(() => rm(binDir, { recursive: true, force: true }))

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sg-connect-plant-'))
})
afterEach(() => rm(home, { recursive: true, force: true }))

const connect = (argv: string[], env: Record<string, string>) =>
  runCliCaptured(['connect', ...argv], {
    env: { HOME: home, PATH: `${binDir}:${process.env.PATH ?? ''}`, ...env },
    cwd: home,
  })

async function claudeConfig(): Promise<{ configDir: string; settings: string; original: string }> {
  const configDir = join(home, 'claude-config')
  await mkdir(configDir)
  const settings = join(configDir, 'settings.json')
  const original = JSON.stringify({ theme: 'dark' })
  await writeFile(settings, original)
  return { configDir, settings, original }
}

describe('connect --write and what is planted at its backup path', () => {
  it('a symlink at <config>.shellgate-backup is replaced, never written through', async () => {
    const { configDir, settings, original } = await claudeConfig()
    const victim = join(home, 'victim-bashrc')
    await writeFile(victim, 'export PATH=/usr/bin\n')
    await symlink(victim, `${settings}.shellgate-backup`)

    const result = await connect(['claude-code', '--write'], { CLAUDE_CONFIG_DIR: configDir })
    expect(result.code).toBe(0)
    expect(await readFile(victim, 'utf8')).toBe('export PATH=/usr/bin\n')
    const backup = await lstat(`${settings}.shellgate-backup`)
    expect(backup.isFile()).toBe(true)
    expect(backup.mode & 0o777).toBe((await lstat(settings)).mode & 0o777)
    expect(await readFile(`${settings}.shellgate-backup`, 'utf8')).toBe(original)
  })

  it('a FIFO at the backup path does not hang the command (nobody will ever read it)', async () => {
    const { configDir, settings, original } = await claudeConfig()
    execFileSync('mkfifo', [`${settings}.shellgate-backup`])

    const result = await connect(['claude-code', '--write'], { CLAUDE_CONFIG_DIR: configDir })
    expect(result.code).toBe(0)
    expect((await lstat(`${settings}.shellgate-backup`)).isFile()).toBe(true)
    expect(await readFile(`${settings}.shellgate-backup`, 'utf8')).toBe(original)
  }, 20_000)

  it('a FIFO or a symlink at the config itself is refused, coded in words, and left alone', async () => {
    const configDir = join(home, 'claude-config')
    await mkdir(configDir)
    execFileSync('mkfifo', [join(configDir, 'settings.json')])
    const outside = join(home, 'outside.json')
    await writeFile(outside, '{}')
    await symlink(outside, join(configDir, '.claude.json'))

    const result = await connect(['claude-code', '--write'], { CLAUDE_CONFIG_DIR: configDir })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(
      `left ${join(configDir, 'settings.json')} alone: it is not a regular file`,
    )
    expect(result.stderr).toContain(`left ${join(configDir, '.claude.json')} alone: it is not a regular file`)
    expect((await lstat(join(configDir, 'settings.json'))).isFIFO()).toBe(true)
    expect(await readFile(outside, 'utf8')).toBe('{}')
  }, 20_000)
})
