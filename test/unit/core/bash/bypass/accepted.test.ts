import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { prepareDir } from './real-run'

/**
 * test/fixtures/readonly-accepted.jsonl: commands that must stay read-only without a question,
 * one JSON object a line in the shape of readonly-regressions.jsonl (`command`, `class`, `why`,
 * optional `setup`). Each false-refusal class fixed gets its rows here, so a fix that closes a
 * bypass by refusing more shows up as a broken row.
 */
interface Accepted {
  command: string
  class: number
  why: string
  setup?: string
}

const FIXTURE = join(__dirname, '../../../../fixtures/readonly-accepted.jsonl')
const rows: Accepted[] = readFileSync(FIXTURE, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Accepted)

describe('readonly-accepted.jsonl', () => {
  it('every row names its class and says why', () => {
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(row.class, row.command).toBeGreaterThanOrEqual(1)
      expect(row.why.length, row.command).toBeGreaterThan(10)
    }
  })

  it.each(rows.map((row) => [row.command, row]))('%s stays read-only, asking nothing', (_, row) => {
    // Judged in a fresh folder holding f (and what setup made), which is the workspace.
    const cwd = prepareDir([], row.setup ?? '')
    try {
      const verdict = classifyCommand(row.command, { cwd, workspace: cwd, platform: 'linux' })
      expect({ readOnly: verdict.readOnly, asks: verdict.asks ?? [] }, verdict.reason).toEqual({
        readOnly: true,
        asks: [],
      })
    } finally {
      rmSync(cwd, { recursive: true, force: true })
    }
  })
})
