import { randomBytes } from 'node:crypto'
import { chmod, mkdir, open, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { readOwnedFile } from '../settings/owned-file'

/** A path is at most PATH_MAX (4096) bytes on Linux; anything longer is not what the shell wrote. */
const CWD_FILE_MAX_BYTES = 64 * 1024

/**
 * Each Bash command runs in a fresh shell; only its final directory comes back (seed 003): on exit
 * 0 the shell writes `pwd -P` to a file named here. Variables, aliases and functions set by the
 * command are not kept, on purpose.
 */
export async function createCwdCaptureFile(dataDir: string): Promise<string> {
  const dir = join(dataDir, 'exec', 'cwd')
  // 0700 and an unguessable name: `pwd -P >|` follows a symlink, so nobody else may plant one.
  await mkdir(dir, { recursive: true, mode: 0o700 })
  // mkdir's mode applies only to a folder it creates; one left wider by an older version is narrowed.
  await chmod(dir, 0o700).catch(() => {})
  const file = join(dir, `cwd-${randomBytes(12).toString('hex')}`)
  // Created here, empty and 0600 ('wx' refuses anything already there): the shell's `>|` then
  // truncates this file and keeps its mode, instead of creating one with the umask's 0644.
  await (await open(file, 'wx', 0o600)).close()
  return file
}

/** The directory the command ended in, or null when it did not exit 0; the file is removed either way. */
export async function readCapturedCwd(cwdFile: string): Promise<string | null> {
  const content = await readOwnedFile(cwdFile, CWD_FILE_MAX_BYTES).catch(() => null)
  await rm(cwdFile, { force: true })
  if (content === null) return null
  const cwd = content.text.replace(/\r?\n$/, '')
  return cwd === '' ? null : cwd
}
