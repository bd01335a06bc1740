import { execFileSync, spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises'
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
    // Repeated, with more claimants than hubs ever start at once, so that the interleavings in
    // which a claimant reads a lock another is still creating or breaking do happen.
    for (let round = 0; round < 25; round++) {
      const file = await lockFile()
      await writeFile(file, `${deadPid()}\nstale\n`)
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => acquireHubLock(file)))
      expect(acquired(outcomes)).toHaveLength(1)
      const winner = acquired(outcomes)[0]
      const text = await readFile(file, 'utf8')
      expect(text.split('\n')[0]).toBe(String(process.pid))
      // The others are told the live pid, never the dead one.
      for (const outcome of outcomes) if (outcome.kind === 'held') expect(outcome.pid).toBe(process.pid)
      // Nothing is left lying around from the moves aside, the guard or the claimants' own files.
      expect(await readdir(join(file, '..'))).toEqual(['hub.lock'])
      if (winner?.kind === 'acquired') await winner.lock.release()
      expect(await readdir(join(file, '..'))).toEqual([])
    }
  })

  it('a lock is never seen half-written: claimants against a live holder all see its pid', async () => {
    for (let round = 0; round < 25; round++) {
      const file = await lockFile()
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => acquireHubLock(file, () => true)))
      expect(acquired(outcomes)).toHaveLength(1)
      expect(outcomes.filter((outcome) => outcome.kind === 'held' && outcome.pid !== process.pid)).toEqual([])
    }
  })

  it('a planted directory or symlink is moved off the name, and what a symlink points at is untouched', async () => {
    const file = await lockFile()
    const dir = join(file, '..')
    await mkdir(file)
    await writeFile(join(file, 'inside'), 'x')
    const fromDir = await acquireHubLock(file)
    expect(fromDir.kind).toBe('acquired')
    expect(await readdir(dir)).toEqual(['hub.lock'])
    await rm(file)
    const target = join(dir, 'target')
    await writeFile(target, '1\nnot-yours\n')
    await symlink(target, file)
    const fromLink = await acquireHubLock(file)
    expect(fromLink.kind).toBe('acquired')
    expect(await readFile(target, 'utf8')).toBe('1\nnot-yours\n')
    expect((await readFile(file, 'utf8')).split('\n')[0]).toBe(String(process.pid))
  })

  it('a guard left by a starter that died mid-break does not keep the dead lock forever', async () => {
    const file = await lockFile()
    await writeFile(file, `${deadPid()}\nstale\n`)
    // A live pid, so that only the guard's age can free it (a breaker never takes this long).
    await writeFile(`${file}.break`, `${process.pid}\nbreaker\n`)
    const past = new Date(Date.now() - 60_000)
    await utimes(`${file}.break`, past, past)
    const outcome = await acquireHubLock(file)
    expect(outcome.kind).toBe('acquired')
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
