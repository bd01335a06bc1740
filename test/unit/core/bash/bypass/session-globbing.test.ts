import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import type { ShellGlobbing } from '../../../../../src/main/core/bash/places/shell-globbing'
import { createShellSnapshotService } from '../../../../../src/main/core/shell/snapshot-service'
import { makeFakeHome } from '../../../../fixtures/shell/fake-home'

const hasZsh = spawnSync('zsh', ['-c', 'true']).status === 0
const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

/** A snapshot of a real shell whose rc file sets `rc`, and the globbing the verdict reads from it. */
async function snapshotGlobbing(dialect: 'bash' | 'zsh', rc: string): Promise<ShellGlobbing> {
  const home = makeFakeHome({ [dialect === 'zsh' ? '.zshrc' : '.bashrc']: rc })
  const dataDir = mkdtempSync(join(tmpdir(), 'shellgate-data-'))
  const snapshots = createShellSnapshotService({ dataDir, platform: 'linux' })
  cleanups.push(async () => {
    await snapshots.close()
    home.remove()
    rmSync(dataDir, { recursive: true, force: true })
  })
  const shell = { dialect, path: dialect === 'zsh' ? '/usr/bin/zsh' : '/bin/bash' }
  const snapshot = await snapshots.ensureShellSnapshot(shell, { HOME: home.home, PATH: '/usr/bin:/bin' })
  expect(snapshot.status).toBe('ready')
  return { shell: dialect, options: snapshots.globOptions(shell), characters: 'utf8' }
}

function plantedFolder(files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'shellgate-glob-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  for (const file of files) {
    mkdirSync(join(dir, file, '..'), { recursive: true })
    writeFileSync(join(dir, file), 'planted\n')
  }
  return dir
}

describe("the session's shell options decide what a glob is (issue 21.2)", () => {
  it.skipIf(!hasZsh)(
    'zsh with EXTENDED_GLOB turns `sort ^a` into sort -ofoo for real; the verdict refuses it there',
    async () => {
      const dir = plantedFolder(['-ofoo', 'a', 'b'])
      spawnSync('zsh', ['-c', 'setopt extendedglob; sort ^a'], { cwd: dir })
      expect(existsSync(join(dir, 'foo'))).toBe(true)
      const zsh = await snapshotGlobbing('zsh', 'setopt extendedglob\n')
      expect(zsh.options?.has('extendedglob')).toBe(true)
      expect(classifyCommand('sort ^a', { cwd: dir, platform: 'linux', globbing: zsh }).readOnly).toBe(false)
      // Nothing known about the shell: zsh may be it.
      expect(classifyCommand('sort ^a', { cwd: dir, platform: 'linux' }).readOnly).toBe(false)
      // bash reads ^a as a file name, as does zsh without EXTENDED_GLOB.
      const bash = await snapshotGlobbing('bash', '')
      expect(classifyCommand('sort ^a', { cwd: dir, platform: 'linux', globbing: bash }).readOnly).toBe(true)
      const plainZsh = await snapshotGlobbing('zsh', '')
      expect(classifyCommand('sort ^a', { cwd: dir, platform: 'linux', globbing: plainZsh }).readOnly).toBe(
        true,
      )
    },
  )

  it('bash with dotglob reads .env through `cat *`; the verdict asks there, and not without dotglob', async () => {
    const dir = plantedFolder(['.env', 'a.txt'])
    const withDotglob = await snapshotGlobbing('bash', 'shopt -s dotglob\n')
    expect(withDotglob.options?.has('dotglob')).toBe(true)
    const run = spawnSync('bash', ['-c', 'shopt -s dotglob\ncat *'], { cwd: dir, encoding: 'utf8' })
    expect(run.stdout).toBe('planted\nplanted\n')
    const options = { cwd: dir, workspace: dir, platform: 'linux' as const }
    const dotted = classifyCommand('cat *', { ...options, globbing: withDotglob })
    expect(dotted).toMatchObject({ readOnly: true, asks: [expect.objectContaining({ kind: 'secret' })] })
    expect(dotted.asks?.[0]?.reason).toContain('.env')
    const plain = await snapshotGlobbing('bash', '')
    expect(classifyCommand('cat *', { ...options, globbing: plain }).asks).toBeUndefined()
  })

  it('bash with globstar reads a key two folders down through `cat **/*.pem`; the verdict asks', async () => {
    const dir = plantedFolder(['deep/er/server.pem', 'a.txt'])
    const globstar = await snapshotGlobbing('bash', 'shopt -s globstar\n')
    const run = spawnSync('bash', ['-c', 'shopt -s globstar\ncat **/*.pem'], { cwd: dir, encoding: 'utf8' })
    expect(run.stdout).toBe('planted\n')
    const verdict = classifyCommand('cat **/*.pem', {
      cwd: dir,
      workspace: dir,
      platform: 'linux',
      globbing: globstar,
    })
    expect(verdict.asks?.map((ask) => ask.path).join(' ')).toContain('deep/er/server.pem')
  })
})
