import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { holdsNoDiscoveryEntry } from '../../../../../src/main/core/bash/git-safety/marker-free-folders'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'

const tempDir = tempDirsRemovedAfterEach()
// As if the folder's last change were long past, so its answer is kept between calls.
const later = () => Date.now() + 60_000

describe('folders remembered as holding no git discovery entry', () => {
  for (const made of [
    ['.git directory', (dir: string) => mkdirSync(join(dir, '.git'))],
    ['bare HEAD file', (dir: string) => writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n')],
    ['objects symlink', (dir: string) => symlinkSync('/nonexistent', join(dir, 'objects'))],
    ['refs directory', (dir: string) => mkdirSync(join(dir, 'refs'))],
  ] as const) {
    it(`see a ${made[0]} made after they were remembered`, () => {
      const dir = tempDir()
      expect(holdsNoDiscoveryEntry(dir, later)).toBe(true)
      expect(holdsNoDiscoveryEntry(dir, later)).toBe(true)
      made[1](dir)
      expect(holdsNoDiscoveryEntry(dir, later)).toBe(false)
    })
  }

  it('are not remembered while their last change is recent (the clock may not have ticked)', () => {
    const dir = tempDir()
    expect(holdsNoDiscoveryEntry(dir)).toBe(true)
    writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n')
    expect(holdsNoDiscoveryEntry(dir)).toBe(false)
  })

  it('a bare repository planted in a folder classify has already walked makes git ask', () => {
    const dir = tempDir()
    expect(holdsNoDiscoveryEntry(dir, later)).toBe(true)
    expect(classifyCommand('git status', { cwd: dir, platform: 'linux' }).readOnly).toBe(true)
    writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n')
    mkdirSync(join(dir, 'objects'))
    mkdirSync(join(dir, 'refs'))
    const verdict = classifyCommand('git status', { cwd: dir, platform: 'linux' })
    expect(verdict.readOnly).toBe(false)
    expect(verdict.reason).toContain('looks like a bare repository')
  })
})
