import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { approved, hostGit, realRepository, runPrepared } from './git-sandbox-fixture'
import { sandboxWorlds } from './sandbox-fixture'

/**
 * A red-team finding of issue 19: a command running at the same time could exchange `.git` with a
 * decoy while the next command's sandbox was set up, so the read-only seal landed on the decoy and
 * the real hooks were written. The exchange itself is a race; what it leaves, a run whose seal was
 * not where it was planned, is made here for certain: the prepared sandbox without its seal
 * mounts, in real bwrap. The check after the run must undo what got past.
 */
const world = sandboxWorlds()
const PLANT = [
  'printf \'#!/bin/sh\\ntouch "$PWD/hook-ran"\\n\' > .git/hooks/pre-commit',
  'chmod +x .git/hooks/pre-commit',
  'git config core.fsmonitor "touch $PWD/fsmonitor-ran; false"',
  'echo ok',
].join(' && ')

describe('the seal is checked after the run', () => {
  it('a hook and a config written past the seal are moved aside and undone; the person’s git runs neither', async () => {
    const w = world()
    realRepository(w)
    const configBefore = readFileSync(join(w.workspace, '.git', 'config'), 'utf8')
    const prepared = await w.service().prepare(w.prepareInput('workspace-write'))
    if (prepared.kind !== 'run' || !prepared.sandbox) throw new Error('expected a sandboxed run')
    try {
      const unsealed = { ...prepared, sandbox: { ...prepared.sandbox, protectedPaths: [] } }
      const result = await runPrepared(w, unsealed, PLANT)
      expect(result.stdout, result.stderr).toBe('ok\n')
      const notes = prepared.settle().join('\n')
      expect(notes).toMatch(/Shellgate moved \.git\/hooks\/pre-commit aside/)
      expect(notes).toMatch(/Shellgate moved \.git\/config aside/)
      expect(notes).toContain('Shellgate put back .git/config as it was before the run.')
    } finally {
      await prepared.release()
    }
    expect(readFileSync(join(w.workspace, '.git', 'config'), 'utf8')).toBe(configBefore)
    expect(
      readdirSync(join(w.workspace, '.git')).some((name) =>
        name.startsWith('config.quarantined-by-shellgate-'),
      ),
    ).toBe(true)
    writeFileSync(join(w.workspace, 'file'), 'changed\n')
    hostGit(w, w.workspace, 'status')
    hostGit(w, w.workspace, 'commit', '-qam', 'after')
    expect(existsSync(join(w.workspace, 'hook-ran'))).toBe(false)
    expect(existsSync(join(w.workspace, 'fsmonitor-ran'))).toBe(false)
  })

  it('ordinary git work in the sealed workspace leaves nothing to undo', async () => {
    const w = world()
    realRepository(w)
    const { result, notes } = await approved(
      w,
      'git checkout -q -b feature && echo two > file && git commit -qam second && git submodule update -q && git stash list && echo ok',
    )
    expect(result.stdout, result.stderr).toBe('ok\n')
    expect(notes).toEqual([])
  })
})
