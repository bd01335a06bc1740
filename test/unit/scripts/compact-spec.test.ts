import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildRegistry } from '../../../scripts/command-registry/build-registry'
import { ARG_FLAG, type CompactStats, compactSpec } from '../../../scripts/command-registry/compact-spec'

describe('compacting a Fig spec', () => {
  it('keeps names, value-taking and persistent options, arg flags and subcommands, sorted', () => {
    const stats: CompactStats = { skippedLoadSpec: 0, skippedDynamic: 0 }
    const node = compactSpec(
      {
        name: 'tool',
        options: [
          { name: ['-C', '--dir'], args: { name: 'path', template: 'folders' }, isPersistent: true },
          { name: '--verbose' },
          { name: '--color', args: { name: 'when', isOptional: true } },
        ],
        args: { name: 'cmd', isCommand: true, isVariadic: true },
        subcommands: [
          { name: 'run', args: [{ name: 'script', template: 'filepaths' }] },
          { name: ['build', 'b'], subcommands: () => [] },
          { name: 'cloud', loadSpec: 'tool/cloud' },
          { name: 'kept', loadSpec: 'tool/kept', options: [{ name: '-x' }] },
        ],
      },
      stats,
    )
    expect(node).toEqual([
      'tool',
      ['--color', '--verbose', '^--dir=', '^-C='],
      ARG_FLAG.command | ARG_FLAG.variadic,
      [
        [['build', 'b'], [], 0, []],
        ['kept', ['-x'], 0, []],
        ['run', [], ARG_FLAG.file, []],
      ],
    ])
    expect(stats).toEqual({ skippedLoadSpec: 1, skippedDynamic: 1 })
  })
})

describe('building the registry', () => {
  const fig = resolve(import.meta.dirname, '..', '..', '..', 'node_modules', '@withfig', 'autocomplete')
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'shellgate-fig-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('refuses any Fig version but the pinned one', async () => {
    const fake = join(dir, 'fake-fig')
    await mkdir(join(fake, 'build'), { recursive: true })
    await writeFile(
      join(fake, 'package.json'),
      JSON.stringify({ name: '@withfig/autocomplete', version: '2.700.0' }),
    )
    await expect(buildRegistry(fake)).rejects.toThrow('must be exactly 2.692.3 (installed: 2.700.0)')
  })

  it('fails when the output is over the size cap', async () => {
    await expect(buildRegistry(fig, 1024)).rejects.toThrow('over the 1024-byte cap')
  })
})
