import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  exampleOf,
  MAX_TRACKED_SHAPES,
  OFFER_EXAMPLE_MAX_CHARS,
  openRuleOfferCounts,
  RULE_OFFER_COUNTS_FILE,
} from '../../../../src/main/core/workbench/rule-offer-counts'

// Issue 22.8: the counts file is bounded, and one that is not what Shellgate writes is kept aside.

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})
const dataDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'sg-offer-counts-'))
  dirs.push(dir)
  return dir
}
const shape = (n: number) => ({
  workspace: '/work/project',
  rule: `tool-${n}:*`,
  allowed: 1,
  denied: false,
  done: false,
  examples: [`tool-${n} run`],
  lastAllowedAt: '2026-12-02T03:00:00.000Z',
})

describe('rule-offer-counts.json', () => {
  it('writes what it is given and reads it back after a restart', async () => {
    const dir = await dataDir()
    const first = await openRuleOfferCounts(dir, () => undefined)
    expect(first.loaded).toEqual({ version: 1, shapes: [], offers: [] })
    await first.save({ version: 1, shapes: [shape(1), shape(2)], offers: [] })
    const again = await openRuleOfferCounts(dir, () => undefined)
    expect(again.loaded.shapes.map((each) => each.rule)).toEqual(['tool-1:*', 'tool-2:*'])
  })

  it(`a file with more than ${MAX_TRACKED_SHAPES} shapes is not Shellgate's: kept as .bak with a warning`, async () => {
    const dir = await dataDir()
    const file = join(dir, RULE_OFFER_COUNTS_FILE)
    const tooMany = Array.from({ length: MAX_TRACKED_SHAPES + 1 }, (_, n) => shape(n))
    await writeFile(file, JSON.stringify({ version: 1, shapes: tooMany, offers: [] }))
    const warnings: string[] = []
    const counts = await openRuleOfferCounts(dir, (message) => warnings.push(message))
    expect(counts.loaded.shapes).toEqual([])
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(`kept as ${file}.bak`)
    expect(JSON.parse(await readFile(`${file}.bak`, 'utf8')).shapes).toHaveLength(MAX_TRACKED_SHAPES + 1)
    expect(existsSync(file)).toBe(false)
  })

  it('keeps an example to its first characters, so the file stays bounded whatever was run', () => {
    const long = `touch ${'x'.repeat(5_000)}`
    expect(exampleOf(long)).toBe(`${long.slice(0, OFFER_EXAMPLE_MAX_CHARS)}…`)
    expect(exampleOf('touch short')).toBe('touch short')
  })
})
