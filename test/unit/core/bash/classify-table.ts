import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { classifyCommand } from '../../../../src/main/core/bash/classify'

/** A command, whether it is read-only, and a fragment the reason must contain. */
export type ClassifyCase = readonly [command: string, readOnly: boolean, reason: string]

/**
 * One vitest case per row, asserting the verdict and the reason. Commands run "in" a fresh temp
 * directory: os.tmpdir() holds no .git, HEAD, objects or refs, so git is judged by its argv alone.
 */
export function itClassifies(cases: readonly ClassifyCase[], platform: NodeJS.Platform = 'linux'): void {
  let cwd = ''
  beforeAll(() => {
    cwd = mkdtempSync(join(tmpdir(), 'shellgate-classify-'))
  })
  afterAll(() => rmSync(cwd, { recursive: true, force: true }))
  it.each(cases)('%s → readOnly %s (%s)', (command, readOnly, reason) => {
    const verdict = classifyCommand(command, { cwd, platform })
    expect({ readOnly: verdict.readOnly, reason: verdict.reason }).toEqual({
      readOnly,
      reason: expect.stringContaining(reason),
    })
  })
}
