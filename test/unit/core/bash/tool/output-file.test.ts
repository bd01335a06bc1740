import { lstat, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { settleOutputFile, utf8Boundary } from '../../../../../src/main/core/bash/tool/output-file'

describe('settling the Bash output file', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'shellgate-output-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })
  const exists = (path: string) =>
    lstat(path).then(
      () => true,
      () => false,
    )

  it('output within the limit is read whole and its file deleted', async () => {
    const path = join(dir, 'small.log')
    await writeFile(path, 'hello\n')
    expect(await settleOutputFile(path, 30_000)).toEqual({
      head: 'hello\n',
      totalBytes: 6,
      persistedPath: null,
    })
    expect(await exists(path)).toBe(false)
  })

  it('output over the limit keeps the file and reads only the head, never splitting a character', async () => {
    const path = join(dir, 'big.log')
    await writeFile(path, `${'a'.repeat(9)}é${'b'.repeat(100)}`)
    const settled = await settleOutputFile(path, 10)
    expect(settled).toEqual({ head: 'a'.repeat(9), totalBytes: 111, persistedPath: path })
    expect(await exists(path)).toBe(true)
  })

  it('a missing file is empty output', async () => {
    expect(await settleOutputFile(join(dir, 'never.log'), 10)).toEqual({
      head: '',
      totalBytes: 0,
      persistedPath: null,
    })
  })

  it.each([
    [[0x61, 0x62], 2],
    [[0x61, 0xc3], 1],
    [[0x61, 0xc3, 0xa9], 3],
    [[0xe2, 0x82], 0],
    [[0xe2, 0x82, 0xac], 3],
    [[0xf0, 0x9f, 0x98], 0],
  ])('utf8Boundary(%j) = %i', (bytes, expected) => {
    expect(utf8Boundary(Buffer.from(bytes))).toBe(expected)
  })
})
