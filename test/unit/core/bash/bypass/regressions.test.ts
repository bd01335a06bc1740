import { readFileSync, rmSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { rustupCargoDir } from '../rustup-cargo'
import { prepareDir, runForReal } from './real-run'

/**
 * test/fixtures/readonly-regressions.jsonl: every bypass found or fixed, one JSON object a line.
 *  - effect: what the real run shows on this machine ("output" = that file is created,
 *    "victim-gone" = the planted file `victim` is deleted, "changed:NAME" = NAME no longer holds
 *    what was planted), or null when the row is not run (another platform, or a secret read);
 *  - expect: "refused" (not read-only, the default) or "ask" (read-only, but the decision asks).
 */
interface Regression {
  class: number
  command: string
  plant?: string[]
  setup?: string
  effect: string | null
  platform?: NodeJS.Platform
  /** The environment the command inherits, for the real run and for classify. */
  env?: Record<string, string>
  expect?: 'refused' | 'ask'
  /** What the real run needs beyond the tools `.ci/deps` installs: `rustup` (its cargo proxy). */
  needs?: 'rustup'
  why: string
}

const FIXTURE = join(__dirname, '../../../../fixtures/readonly-regressions.jsonl')
const rows: Regression[] = readFileSync(FIXTURE, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Regression)

describe('readonly-regressions.jsonl', () => {
  it('every row names its class and says why', () => {
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(row.class, row.command).toBeGreaterThanOrEqual(1)
      expect(row.why.length, row.command).toBeGreaterThan(10)
    }
  })

  const rustup = rustupCargoDir()
  const runnable = rows.filter((row) => row.effect !== null && (row.platform ?? 'linux') === 'linux')
  it.for(runnable.map((row) => [row.command, row] as const))(
    '%s really does it on this machine',
    ([, row], context) => {
      if (row.needs === 'rustup' && rustup === null)
        return context.skip(
          "it needs rustup's cargo proxy, and none is installed (Debian's cargo reads no toolchain file)",
        )
      const effect = row.effect as string
      const marker = effect.startsWith('changed:') || effect === 'victim-gone' ? 'never-made' : effect
      const env =
        row.needs === 'rustup'
          ? { ...row.env, PATH: `${rustup}${delimiter}${process.env.PATH ?? ''}` }
          : row.env
      const run = runForReal(row.command, marker, row.plant, row.setup, env)
      if (effect === 'victim-gone') expect(run.victimGone, run.stderr).toBe(true)
      else if (effect.startsWith('changed:'))
        expect(run.files[effect.slice('changed:'.length)], run.stderr).not.toBe('planted\n')
      else expect(run.markerMade, run.stderr).toBe(true)
    },
  )

  it.each(rows.map((row) => [row.command, row]))('%s is not run without asking', (_, row) => {
    // Rows with a setup are judged in the folder it prepared (a repository, planted files); the
    // others from / with a workspace elsewhere, so every absolute read is outside it.
    const cwd = row.setup ? prepareDir(row.plant, row.setup) : '/'
    try {
      const verdict = classifyCommand(row.command, {
        cwd,
        workspace: row.setup ? cwd : '/nonexistent-workspace',
        platform: row.platform ?? 'linux',
        env: row.env,
      })
      if ((row.expect ?? 'refused') === 'refused') expect(verdict.readOnly, verdict.reason).toBe(false)
      else expect(verdict.readOnly && (verdict.asks?.length ?? 0) > 0, verdict.reason).toBe(true)
    } finally {
      if (cwd !== '/') rmSync(cwd, { recursive: true, force: true })
    }
  })
})
