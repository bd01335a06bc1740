import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { findElectronBinary } from '../../../scripts/electron-binary'

describe('findElectronBinary', () => {
  let root: string
  afterEach(() => rm(root, { recursive: true, force: true }))

  it('reports a missing path.txt (no download happened)', async () => {
    root = await mkdtemp(join(tmpdir(), 'shellgate-electron-'))
    await mkdir(join(root, 'node_modules', 'electron'), { recursive: true })
    expect(findElectronBinary(root)).toEqual({
      found: false,
      reason: expect.stringContaining('path.txt is missing'),
    })
  })

  it('reports a path.txt whose dist target is missing', async () => {
    root = await mkdtemp(join(tmpdir(), 'shellgate-electron-'))
    await mkdir(join(root, 'node_modules', 'electron'), { recursive: true })
    await writeFile(join(root, 'node_modules', 'electron', 'path.txt'), 'electron')
    expect(findElectronBinary(root)).toEqual({
      found: false,
      reason: expect.stringContaining('dist/electron is missing'),
    })
  })

  it('finds the binary named by path.txt under dist/', async () => {
    root = await mkdtemp(join(tmpdir(), 'shellgate-electron-'))
    const dist = join(root, 'node_modules', 'electron', 'dist')
    await mkdir(dist, { recursive: true })
    await writeFile(join(root, 'node_modules', 'electron', 'path.txt'), 'electron\n')
    await writeFile(join(dist, 'electron'), '')
    expect(findElectronBinary(root)).toEqual({ found: true, path: join(dist, 'electron') })
  })
})
