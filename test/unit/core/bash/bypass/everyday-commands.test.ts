import { execFileSync, spawnSync } from 'node:child_process'
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type ClassifyOptions, classifyCommand } from '../../../../../src/main/core/bash/classify'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'

const CLEAN_ENV = {
  PATH: '/usr/bin:/bin',
  HOME: '/nonexistent',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
}

// Class 7: commands people run all day, made read-only without opening a hole; each with both sides.
describe('class 7: everyday commands', () => {
  const tempDir = tempDirsRemovedAfterEach()

  /** A workspace holding a clean repository `good` and one `bad` whose fsmonitor touches a marker. */
  function workspace(): ClassifyOptions & { workspace: string; marker: string } {
    const ws = tempDir()
    for (const name of ['good', 'bad']) {
      execFileSync('git', ['init', '-q', join(ws, name)], { env: CLEAN_ENV })
      writeFileSync(join(ws, name, 'f'), 'x\n')
    }
    const marker = join(ws, 'fsmonitor-ran')
    writeFileSync(join(ws, 'hook.sh'), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 })
    appendFileSync(join(ws, 'bad', '.git', 'config'), `[core]\n\tfsmonitor = ${join(ws, 'hook.sh')}\n`)
    mkdirSync(join(ws, 'plain'))
    return { cwd: ws, workspace: ws, platform: 'linux', marker }
  }

  it('cd into a folder of the workspace, then git: judged in that folder', () => {
    const options = workspace()
    expect(classifyCommand('cd good && git status', options).readOnly).toBe(true)
    expect(classifyCommand('cd good && git log --oneline -5 | head -3', options).readOnly).toBe(true)
    const bad = classifyCommand('cd bad && git status', options)
    expect(bad).toMatchObject({ readOnly: false, reason: expect.stringContaining('core.fsmonitor') })
    // The other side, for real: git status there runs the program.
    spawnSync('bash', ['-c', 'cd bad && git status'], { cwd: options.cwd, env: CLEAN_ENV, stdio: 'ignore' })
    expect(existsSync(options.marker)).toBe(true)
    // A cd whose target is only known at run time, or pushd, keeps git refused.
    for (const command of [
      'cd - && git status',
      'pushd good && git status',
      'cd $D && git status',
      'cd ~someone && git log',
    ]) {
      expect(classifyCommand(command, options).readOnly, command).toBe(false)
    }
  })

  it('git -C a folder inside the workspace, judged there; outside it, refused', () => {
    const options = workspace()
    expect(classifyCommand('git -C good status', options).readOnly).toBe(true)
    expect(classifyCommand('git -C plain -C ../good log', options).readOnly).toBe(true)
    expect(classifyCommand('git -C bad status', options).reason).toContain('core.fsmonitor')
    expect(classifyCommand('git -C / status', options).reason).toContain('leaves the workspace')
    expect(classifyCommand('git -C good -C ../.. status', options).reason).toContain('leaves the workspace')
    // Without a workspace to compare with, -C stays refused.
    expect(classifyCommand('git -C good status', { cwd: options.cwd, platform: 'linux' }).readOnly).toBe(
      false,
    )
  })

  it('absolute paths of system tools are those tools; planted or dotted paths are not', () => {
    const options = workspace()
    expect(classifyCommand('/usr/bin/rg foo', options).readOnly).toBe(true)
    expect(classifyCommand('/bin/ls -la', options).readOnly).toBe(true)
    expect(classifyCommand('/usr/bin/rm -rf x', options).reason).toBe('rm deletes files')
    for (const command of [
      './rg foo',
      `${options.cwd}/rg foo`,
      '/usr/bin/../../tmp/rg foo',
      '/usr/bin/./rg foo',
      '/opt/homebrew/bin/rg foo',
    ]) {
      expect(classifyCommand(command, options).readOnly, command).toBe(false)
    }
    expect(classifyCommand('/opt/homebrew/bin/rg foo', { ...options, platform: 'darwin' }).readOnly).toBe(
      true,
    )
  })

  it('git branch --merged/--contains and git tag --contains without a value', () => {
    const options = workspace()
    for (const command of [
      'git branch --merged',
      'git branch --contains',
      'git branch -v --no-merged',
      'git tag --contains',
      'git branch --merged main',
      'git tag --points-at',
    ]) {
      expect(classifyCommand(`cd good && ${command}`, options).readOnly, command).toBe(true)
    }
    // A word after the commit is still a branch to create.
    expect(classifyCommand('cd good && git branch --contains main newbranch', options).reason).toContain(
      'creates a branch',
    )
  })
})
