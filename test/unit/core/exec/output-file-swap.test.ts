import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { settleOutputFile } from '../../../../src/main/core/bash/tool/output-file'
import { createExecutionPort } from '../../../../src/main/core/exec'
import { shQuote } from '../../../../src/main/core/shell/posix-quote'
import { tempDirsRemovedAfterEach } from './temp-dir'

const tempDir = tempDirsRemovedAfterEach()
const PATH_ONLY = { PATH: process.env.PATH ?? '/usr/bin:/bin' }
const SECRET = 'BEGIN OPENSSH PRIVATE KEY (not for the model)'

/** Runs `script` in Bash file mode with $OUT set to its own output path. */
async function runSwapping(script: (out: string, secret: string) => string) {
  const dir = tempDir()
  const outputPath = join(dir, 'out.log')
  const secret = join(dir, 'id_rsa')
  writeFileSync(secret, SECRET)
  const result = await createExecutionPort().execute({
    command: {
      mode: 'shell',
      command: script(shQuote(outputPath), shQuote(secret)),
      shellProfile: 'posix-bash',
    },
    cwd: dir,
    env: PATH_ONLY,
    timeoutMs: 10_000,
    output: { mode: 'file', outputPath },
  })
  expect(result.status).toBe('completed')
  return { result, outputPath }
}

describe('the final read never follows a swapped output path (issue 15.3)', () => {
  it('a symlink swapped in after the run is refused, not followed', async () => {
    const { result, outputPath } = await runSwapping(
      (out, secret) => `echo mine; rm -f ${out}; ln -s ${secret} ${out}`,
    )
    const settled = await settleOutputFile(outputPath, 30_000, false, result.outputIdentity, 'linux')
    expect(settled.head).not.toContain(SECRET)
    expect(settled.refused).toMatch(/replaced by a symlink/)
  })

  it('another regular file moved over the path is refused by inode', async () => {
    const { result, outputPath } = await runSwapping(
      (out, secret) => `echo mine; cp ${secret} ${out}.new; mv ${out}.new ${out}`,
    )
    const settled = await settleOutputFile(outputPath, 30_000, false, result.outputIdentity, 'linux')
    expect(settled.head).not.toContain(SECRET)
    expect(settled.refused).toMatch(/no longer the file the command wrote to/)
    // Without the identity only symlinks could be caught: this is what the inode check adds.
    expect((await settleOutputFile(outputPath, 30_000, true, undefined, 'linux')).head).toBe(SECRET)
  })

  it('the untouched file is read as before', async () => {
    const { result, outputPath } = await runSwapping(() => 'echo mine')
    const settled = await settleOutputFile(outputPath, 30_000, false, result.outputIdentity, 'linux')
    expect(settled).toEqual({ head: 'mine\n', totalBytes: 5, persistedPath: null })
  })
})
