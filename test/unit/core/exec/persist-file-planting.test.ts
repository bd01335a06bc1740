import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BoundedCollector } from '../../../../src/main/core/exec/bounded-collector'
import { tempDirsRemovedAfterEach } from './temp-dir'

const tempDir = tempDirsRemovedAfterEach()
const RUN_ID = 'planted-run'

/** A collector with a 4-byte inline budget, so the fifth byte opens the overflow file. */
function overflowInto(dir: string) {
  const collector = new BoundedCollector({
    inlineLimitBytes: 4,
    persist: { dir, runId: RUN_ID, limitBytes: 1024 },
  })
  collector.push('stdout', Buffer.from('0123456789'))
  collector.close()
  return collector
}

describe('persisted overflow files are created O_EXCL | O_NOFOLLOW (issue 15.17)', () => {
  it('a regular file planted at the path is neither written nor truncated (O_EXCL)', () => {
    const dir = tempDir()
    const planted = join(dir, `${RUN_ID}-stdout.log`)
    writeFileSync(planted, 'planted content')
    const collector = overflowInto(dir)
    expect(readFileSync(planted, 'utf8')).toBe('planted content')
    expect(collector.persistError).toMatch(/^EEXIST/)
    expect(collector.persistedPath('stdout')).toBeUndefined()
    expect(collector.truncated).toBe(true)
  })

  it('a symlink planted at the path is not followed: its target is never created', () => {
    const dir = tempDir()
    const target = join(dir, 'elsewhere', '..', 'target-of-link')
    symlinkSync(target, join(dir, `${RUN_ID}-stdout.log`))
    const collector = overflowInto(dir)
    expect(existsSync(target)).toBe(false)
    expect(collector.persistError).toMatch(/^(EEXIST|ELOOP)/)
  })

  it('with nothing planted, the overflow file holds the stream from its first byte', () => {
    const dir = tempDir()
    const collector = overflowInto(dir)
    expect(collector.persistError).toBeNull()
    expect(readFileSync(join(dir, `${RUN_ID}-stdout.log`), 'utf8')).toBe('0123456789')
  })
})
