import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * Each Bash command runs in a fresh shell; only its final directory comes back (seed 003): on exit
 * 0 the shell writes `pwd -P` to a file named here. Variables, aliases and functions set by the
 * command are not kept, on purpose.
 */
export async function createCwdCaptureFile(dataDir: string): Promise<string> {
  const dir = join(dataDir, 'exec', 'cwd')
  // 0700 and an unguessable name: `pwd -P >|` follows a symlink, so nobody else may plant one.
  await mkdir(dir, { recursive: true, mode: 0o700 })
  return join(dir, `cwd-${randomBytes(12).toString('hex')}`)
}

/** The directory the command ended in, or null when it did not exit 0; the file is removed either way. */
export async function readCapturedCwd(cwdFile: string): Promise<string | null> {
  const text = await readFile(cwdFile, 'utf8').catch(() => null)
  await rm(cwdFile, { force: true })
  if (text === null) return null
  const cwd = text.replace(/\r?\n$/, '')
  return cwd === '' ? null : cwd
}
