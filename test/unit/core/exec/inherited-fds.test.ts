import { spawnSync } from 'node:child_process'
import { closeSync, existsSync, openSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { reopenedThroughProc } from '../../../../src/main/core/exec/inherited-fds'
import { tempDirsRemovedAfterEach } from './temp-dir'

describe('descriptors for a child that takes them itself (a terminal run)', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it('the child gets this process’s open files as 3, 4, …, and nothing of its environment runs first', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'first'), 'one\n')
    writeFileSync(join(dir, 'second'), 'two\n')
    writeFileSync(join(dir, 'bash-env'), `echo sourced > ${join(dir, 'ran')}\n`)
    const fds = [openSync(join(dir, 'first'), 'r'), openSync(join(dir, 'second'), 'r')]
    try {
      const plan = reopenedThroughProc({
        file: '/bin/sh',
        args: ['-c', 'cat <&3; cat <&4'],
        windowsVerbatimArguments: false,
        inheritFds: fds,
      })
      expect(plan.inheritFds).toBeUndefined()
      // No descriptors handed over: the child opens /proc/<pid>/fd/<n> itself.
      const run = spawnSync(plan.file, plan.args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
        env: { PATH: '/usr/bin:/bin', BASH_ENV: join(dir, 'bash-env'), ENV: join(dir, 'bash-env') },
      })
      expect(run.stdout, run.stderr).toBe('one\ntwo\n')
      expect(existsSync(join(dir, 'ran'))).toBe(false)
    } finally {
      for (const fd of fds) closeSync(fd)
    }
  })

  it('a plan without descriptors is spawned as it is', () => {
    const plan = { file: '/bin/true', args: [], windowsVerbatimArguments: false }
    expect(reopenedThroughProc(plan)).toBe(plan)
  })
})
