import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AUTO_RUN_GIT_CONFIG, autoRunEnv } from '../../../../src/main/core/env/auto-run-env'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shellgate-auto-run-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const BASE = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent' }

/** Runs `file args` in `cwd` with exactly `env`; true when the marker file was created. */
function createsMarker(env: Record<string, string>, file: string, args: string[], cwd = dir): boolean {
  const marker = join(dir, 'marker')
  rmSync(marker, { force: true })
  spawnSync(file, args, { env, cwd, stdio: 'ignore' })
  return existsSync(marker)
}

function gitRepo(): string {
  const repo = join(dir, 'repo')
  const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, env: BASE })
  spawnSync('git', ['init', '-q', repo], { env: BASE })
  writeFileSync(join(repo, 'f'), 'a\n')
  git('add', 'f')
  git('-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-qm', 'x')
  writeFileSync(join(repo, 'f'), 'b\n')
  return repo
}

describe('autoRunEnv', () => {
  it('removes code-injection names, lists them, and keeps the rest as it was', () => {
    const env = {
      ...BASE,
      LD_PRELOAD: '/x.so',
      LD_AUDIT: '/y.so',
      LD_LIBRARY_PATH: '.',
      NODE_OPTIONS: '--require ./x.js',
      PYTHONSTARTUP: '/x.py',
      PROMPT_COMMAND: 'touch x',
      GIT_SSH_COMMAND: 'touch x',
      GIT_EXTERNAL_DIFF: 'touch x',
      GIT_CONFIG_PARAMETERS: "'core.pager'='touch x'",
      GIT_CONFIG_GLOBAL: '/tmp/evil',
      PAGER: 'touch x',
      'BASH_FUNC_ls%%': '() { touch x; }',
      BASH_ENV: '/x.sh',
      LANG: 'C.UTF-8',
    }
    const { env: result, removedKeys } = autoRunEnv(env, 'linux')
    expect(removedKeys).toEqual(
      [
        'BASH_ENV',
        'BASH_FUNC_ls%%',
        'GIT_CONFIG_GLOBAL',
        'GIT_CONFIG_PARAMETERS',
        'GIT_EXTERNAL_DIFF',
        'GIT_SSH_COMMAND',
        'LD_AUDIT',
        'LD_LIBRARY_PATH',
        'LD_PRELOAD',
        'NODE_OPTIONS',
        'PAGER',
        'PROMPT_COMMAND',
        'PYTHONSTARTUP',
      ].sort(),
    )
    expect(result.PATH).toBe(BASE.PATH)
    expect(result.LANG).toBe('C.UTF-8')
    for (const key of removedKeys) expect(result).not.toHaveProperty(key)
    expect(result.GIT_CONFIG_COUNT).toBe(String(AUTO_RUN_GIT_CONFIG.length))
    expect(result.GIT_CONFIG_KEY_0).toBe('core.fsmonitor')
    expect(result.GIT_PAGER).toBe('cat')
  })

  it("replaces the user's own GIT_CONFIG_COUNT entries instead of appending to them", () => {
    const { env } = autoRunEnv(
      { ...BASE, GIT_CONFIG_COUNT: '40', GIT_CONFIG_KEY_39: 'core.fsmonitor', GIT_CONFIG_VALUE_39: 'x' },
      'linux',
    )
    expect(env.GIT_CONFIG_KEY_39).toBeUndefined()
    expect(env.GIT_CONFIG_COUNT).toBe(String(AUTO_RUN_GIT_CONFIG.length))
  })

  it('keeps one spelling per name on Windows (Git_Config_Count is GIT_CONFIG_COUNT)', () => {
    const { env } = autoRunEnv({ Path: 'C:\\Windows', Git_Config_Count: '9' }, 'win32')
    expect(Object.keys(env).filter((k) => k.toUpperCase() === 'GIT_CONFIG_COUNT')).toEqual([
      'GIT_CONFIG_COUNT',
    ])
    expect(env.Path).toBe('C:\\Windows')
  })

  it("stops a repository's core.fsmonitor from running during git status (real git)", () => {
    const repo = gitRepo()
    spawnSync('git', ['config', 'core.fsmonitor', `touch ${join(dir, 'marker')}; false`], { cwd: repo })
    expect(createsMarker(BASE, 'git', ['status', '--porcelain'], repo)).toBe(true)
    expect(createsMarker(autoRunEnv(BASE, 'linux').env, 'git', ['status', '--porcelain'], repo)).toBe(false)
  })

  it('stops GIT_CONFIG_* and GIT_EXTERNAL_DIFF from the environment from running a program (real git)', () => {
    const repo = gitRepo()
    const hostile = {
      ...BASE,
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.fsmonitor',
      GIT_CONFIG_VALUE_0: `touch ${join(dir, 'marker')}; false`,
    }
    expect(createsMarker(hostile, 'git', ['diff'], repo)).toBe(true)
    expect(createsMarker(autoRunEnv(hostile, 'linux').env, 'git', ['diff'], repo)).toBe(false)
    const externalDiff = { ...BASE, GIT_EXTERNAL_DIFF: `touch ${join(dir, 'marker')}; true` }
    expect(createsMarker(externalDiff, 'sh', ['-c', 'git diff'], repo)).toBe(true)
    expect(createsMarker(autoRunEnv(externalDiff, 'linux').env, 'sh', ['-c', 'git diff'], repo)).toBe(false)
    // And git diff still works: the overrides neutralise programs, not git.
    const diff = spawnSync('git', ['diff', '--stat'], { cwd: repo, env: autoRunEnv(hostile, 'linux').env })
    expect(diff.status).toBe(0)
    expect(diff.stdout.toString()).toContain('1 file changed')
  })

  it('stops NODE_OPTIONS --require from loading a module into node (real node)', () => {
    const script = join(dir, 'inject.js')
    writeFileSync(script, `require('node:fs').writeFileSync(${JSON.stringify(join(dir, 'marker'))}, '')\n`)
    const env = { ...BASE, NODE_OPTIONS: `--require ${script}` }
    expect(createsMarker(env, process.execPath, ['-e', '0'])).toBe(true)
    expect(createsMarker(autoRunEnv(env, 'linux').env, process.execPath, ['-e', '0'])).toBe(false)
  })

  it('stops SHELLOPTS from switching options on in every bash (real bash)', () => {
    const env = { ...BASE, SHELLOPTS: 'xtrace' }
    const traced = (e: Record<string, string>) =>
      spawnSync('/bin/bash', ['-c', 'true'], { env: e }).stderr.toString()
    expect(traced(env)).toContain('+ true')
    expect(traced(autoRunEnv(env, 'linux').env)).toBe('')
  })

  it('stops an exported bash function from replacing a command (real bash)', () => {
    const env = { ...BASE, 'BASH_FUNC_ls%%': `() { touch ${join(dir, 'marker')}; }` }
    expect(createsMarker(env, '/bin/bash', ['-c', 'ls >/dev/null'])).toBe(true)
    expect(createsMarker(autoRunEnv(env, 'linux').env, '/bin/bash', ['-c', 'ls >/dev/null'])).toBe(false)
  })
})

describe('autoRunEnv: PATH (red team)', () => {
  it('a leading empty PATH entry runs a planted ./ls for real; without asking, only absolute entries stay', () => {
    writeFileSync(join(dir, 'ls'), `#!/bin/sh\n/usr/bin/touch ${join(dir, 'marker')}\n`, { mode: 0o755 })
    const env = { ...BASE, PATH: `:${BASE.PATH}:node_modules/.bin:.` }
    expect(createsMarker(env, '/bin/bash', ['-c', 'ls'])).toBe(true)
    const safe = autoRunEnv(env, 'linux').env
    expect(safe.PATH).toBe(
      BASE.PATH.split(':')
        .filter((entry) => entry.startsWith('/'))
        .join(':'),
    )
    expect(createsMarker(safe, '/bin/bash', ['-c', 'ls'])).toBe(false)
  })

  it('leaves a Windows Path alone', () => {
    expect(autoRunEnv({ Path: 'C:\\bin;.' }, 'win32').env.Path).toBe('C:\\bin;.')
  })
})
