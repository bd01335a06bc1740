import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'

/** A fresh directory under os.tmpdir() for each test that asks, removed after it. */
export function tempDirsRemovedAfterEach(): () => string {
  const made: string[] = []
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  return () => {
    const dir = mkdtempSync(join(tmpdir(), 'shellgate-exec-'))
    made.push(dir)
    return dir
  }
}
