import { constants } from 'node:fs'
import { lstat, mkdir, open } from 'node:fs/promises'
import { dirname } from 'node:path'
import { writeFileAtomic } from '../../core/settings/atomic-write'
import type { ConfigEdit } from './client-configs'

/** A client config is a few KiB; a larger one is not a config we should rewrite. */
const CONFIG_MAX_BYTES = 4 * 1024 * 1024

export type EditOutcome =
  | { kind: 'written'; path: string; backup: string | null }
  | { kind: 'unchanged'; path: string }
  | { kind: 'refused'; path: string; reason: string }

/**
 * Applies one edit: refuses what it cannot parse (or a symlink, or a non-file), backs the file up
 * next to itself first, writes atomically, and changes nothing when the edit is already there.
 */
export async function applyConfigEdit(edit: ConfigEdit): Promise<EditOutcome> {
  const { path } = edit
  const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null
    throw error
  })
  if (info && !info.isFile())
    return { kind: 'refused', path, reason: 'it is not a regular file (a symlink or a folder)' }
  if (info && info.size > CONFIG_MAX_BYTES)
    return { kind: 'refused', path, reason: 'it is larger than 4 MiB' }
  const before = info ? await readRegularFile(path) : null
  if (typeof before === 'object' && before !== null) return { kind: 'refused', path, reason: before.refused }
  let after: string
  if (edit.kind === 'json') {
    let current: unknown = {}
    if (before !== null && before.trim() !== '') {
      try {
        current = JSON.parse(before)
      } catch (error) {
        return {
          kind: 'refused',
          path,
          reason: `it is not valid JSON (${(error as Error).message}); fix it first`,
        }
      }
    }
    if (typeof current !== 'object' || current === null || Array.isArray(current)) {
      return { kind: 'refused', path, reason: 'its top level is not a JSON object' }
    }
    const merged = edit.merge(current as Record<string, unknown>)
    if (before !== null && JSON.stringify(merged) === JSON.stringify(current))
      return { kind: 'unchanged', path }
    after = `${JSON.stringify(merged, null, 2)}\n`
  } else {
    // A full TOML parser is not worth a dependency: the table header is the idempotence key.
    if (before?.split('\n').some((line) => line.trim() === edit.table)) return { kind: 'unchanged', path }
    if (before?.includes('\u0000'))
      return { kind: 'refused', path, reason: 'it contains NUL bytes; it is not TOML' }
    after = `${before ? `${before.replace(/\n*$/, '\n')}\n` : ''}${edit.block}\n`
  }
  await mkdir(dirname(path), { recursive: true, mode: 0o700 })
  let backup: string | null = null
  if (before !== null) {
    // Renamed into place like the config: a symlink or FIFO planted at the backup's name is
    // replaced, never written through or waited on.
    backup = `${path}.shellgate-backup`
    await writeFileAtomic(backup, before, info ? info.mode & 0o777 : 0o600)
  }
  await writeFileAtomic(path, after, info ? info.mode & 0o777 : 0o600)
  return { kind: 'written', path, backup }
}

/**
 * The file's text, opened so that what lstat saw is what is read: no symlink is followed, a FIFO
 * swapped in since does not block the open, and the opened file is checked again.
 */
async function readRegularFile(path: string): Promise<string | { refused: string }> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ELOOP') return null
      throw error
    },
  )
  if (!handle) return { refused: 'it is not a regular file (a symlink or a folder)' }
  try {
    const info = await handle.stat()
    if (!info.isFile()) return { refused: 'it is not a regular file (a symlink or a folder)' }
    if (info.size > CONFIG_MAX_BYTES) return { refused: 'it is larger than 4 MiB' }
    return await handle.readFile('utf8')
  } finally {
    await handle.close()
  }
}
