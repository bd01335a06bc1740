import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/** A session id becomes a directory name: nothing that could climb out of it. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/

/**
 * Writes a script the Bash tool sources before each command (seed 000: e.g. find/grep helper
 * functions) to <dataDir>/exec/bash-startup/<session>/<sha256>.sh, 0600, atomically. The name is
 * the content hash, so an unchanged script is written once and a changed one never overwrites a
 * file a running command is sourcing.
 */
export async function writeStartupScript(
  dataDir: string,
  sessionId: string,
  content: string,
): Promise<string> {
  if (!SESSION_ID.test(sessionId))
    throw new Error(`session id "${sessionId}" may only use letters, digits, - and _`)
  const dir = join(dataDir, 'exec', 'bash-startup', sessionId)
  const file = join(dir, `${createHash('sha256').update(content).digest('hex')}.sh`)
  const existing = await readFile(file, 'utf8').catch(() => null)
  if (existing === content) return file
  await mkdir(dir, { recursive: true, mode: 0o700 })
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`
  await writeFile(temp, content, { mode: 0o600, flag: 'wx' })
  await rename(temp, file)
  return file
}
