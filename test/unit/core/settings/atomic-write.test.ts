import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeFileAtomic } from '../../../../src/main/core/settings/atomic-write'
import { collectFixture, spawnFixture, waitForLine } from './fixtures/run-fixture'

let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shellgate-atomic-'))
})

afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('writeFileAtomic', () => {
  it('replaces the file with owner-only permissions and leaves no temp file', async () => {
    const target = join(dir, 'settings.json')
    await writeFile(target, 'old')
    await writeFileAtomic(target, '{"new":true}\n')
    expect(await readFile(target, 'utf8')).toBe('{"new":true}\n')
    expect((await stat(target)).mode & 0o777).toBe(0o600)
    expect(await readdir(dir)).toEqual(['settings.json'])
  })

  it('fails without touching anything when the directory does not exist', async () => {
    await expect(writeFileAtomic(join(dir, 'missing', 'settings.json'), '{}')).rejects.toThrow(/ENOENT/)
    expect(await readdir(dir)).toEqual([])
  })

  it('never shows a reader in another process a partial file while it is rewritten', async () => {
    const target = join(dir, 'settings.json')
    const writer = spawnFixture('atomic-writer.ts', [target])
    try {
      await waitForLine(writer, 'ready')
      const report = JSON.parse(await collectFixture(spawnFixture('torn-reader.ts', [target, '1500']))) as {
        reads: number
        torn: number
        distinct: number
      }
      expect(report.torn).toBe(0)
      // The reader really overlapped the writes: it saw several versions.
      expect(report.distinct).toBeGreaterThan(1)
    } finally {
      writer.kill('SIGKILL')
    }
  })

  it('leaves the last complete file in place when the writer is killed mid-write', async () => {
    const target = join(dir, 'settings.json')
    const writer = spawnFixture('atomic-writer.ts', [target])
    await waitForLine(writer, 'ready')
    await new Promise((resolve) => setTimeout(resolve, 300))
    const closed = new Promise((resolve) => writer.on('close', resolve))
    writer.kill('SIGKILL')
    await closed
    const doc = JSON.parse(await readFile(target, 'utf8')) as { n: number; filler: string }
    expect(doc.filler).toBe(String(doc.n % 10).repeat(200_000))
  })
})
