import { execFileSync } from 'node:child_process'
import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { HubError } from '../../../src/main/hub/hub-error'
import { startDetachedHub } from '../../../src/main/hub/start-hub'

// run/hub.log is where a detached hub's output goes. Something planted there is refused with a
// coded error before any hub starts: nothing is written through a symlink, no FIFO is waited on.

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function homeWithRun(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'sg-hublog-plant-'))
  dirs.push(home)
  await mkdir(join(home, 'run'), { mode: 0o700 })
  return home
}

describe('a plant at run/hub.log', () => {
  it('a FIFO or a symlink is refused as hub_start_failed, and nothing is written or started', async () => {
    const fifoHome = await homeWithRun()
    execFileSync('mkfifo', [join(fifoHome, 'run', 'hub.log')])
    const linkHome = await homeWithRun()
    const victim = join(linkHome, 'victim')
    await writeFile(victim, 'untouched')
    await symlink(victim, join(linkHome, 'run', 'hub.log'))

    for (const home of [fifoHome, linkHome]) {
      const error = await startDetachedHub({ home, workspace: home, env: { PATH: process.env.PATH } }).catch(
        (caught: unknown) => caught,
      )
      expect(error).toBeInstanceOf(HubError)
      expect((error as HubError).code).toBe('hub_start_failed')
      expect((error as HubError).message).toBe(
        `${join(home, 'run', 'hub.log')} is not a regular file (a symlink or FIFO put there?); Shellgate writes nothing through it. Remove it, then start again`,
      )
      await expect(lstat(join(home, 'run', 'hub.json'))).rejects.toThrow(/ENOENT/)
    }
    expect(await readFile(victim, 'utf8')).toBe('untouched')
  })
})
