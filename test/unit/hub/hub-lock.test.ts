import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { acquireHubLock, type LockOutcome } from '../../../src/main/hub/hub-lock'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function lockFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'shellgate-lock-'))
  dirs.push(dir)
  return join(dir, 'hub.lock')
}

/** A pid that surely belongs to no process: one that just exited (and was reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'])
  return Number(child.stdout.toString())
}

const acquired = (outcomes: LockOutcome[]) => outcomes.filter((outcome) => outcome.kind === 'acquired')

describe('run/hub.lock', () => {
  it('one winner among concurrent claimants; the others are told its pid', async () => {
    const file = await lockFile()
    const outcomes = await Promise.all([acquireHubLock(file), acquireHubLock(file), acquireHubLock(file)])
    expect(acquired(outcomes)).toHaveLength(1)
    expect(outcomes.filter((outcome) => outcome.kind === 'held')).toEqual([
      { kind: 'held', pid: process.pid },
      { kind: 'held', pid: process.pid },
    ])
    const winner = acquired(outcomes)[0]
    if (winner?.kind === 'acquired') await winner.lock.release()
    expect((await acquireHubLock(file)).kind).toBe('acquired')
  })

  it('a dead holder’s lock is broken once, by exactly one of several claimants', async () => {
    const file = await lockFile()
    await writeFile(file, `${deadPid()}\nstale\n`)
    const outcomes = await Promise.all([acquireHubLock(file), acquireHubLock(file), acquireHubLock(file)])
    expect(acquired(outcomes)).toHaveLength(1)
    expect((await readFile(file, 'utf8')).split('\n')[0]).toBe(String(process.pid))
    // Nothing is left lying around from the moves aside.
    expect(await readdir(join(file, '..'))).toEqual(['hub.lock'])
  })

  it('a garbage or FIFO lock is broken without hanging; release removes only our own lock', async () => {
    const file = await lockFile()
    await writeFile(file, 'garbage')
    const first = await acquireHubLock(file)
    expect(first.kind).toBe('acquired')
    if (first.kind === 'acquired') {
      // Someone else replaced it (after breaking ours as stale): release must leave theirs.
      await writeFile(file, '1\nsomeone-else\n')
      await first.lock.release()
      expect(await readFile(file, 'utf8')).toBe('1\nsomeone-else\n')
    }
    await rm(file)
    execFileSync('mkfifo', [file])
    const fromFifo = await acquireHubLock(file)
    expect(fromFifo.kind).toBe('acquired')
  })
})
