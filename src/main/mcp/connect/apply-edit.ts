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
    if (before?.includes('\u0000'))
      return { kind: 'refused', path, reason: 'it contains NUL bytes; it is not TOML' }
    // A full TOML parser is not worth a dependency: our table runs from its header to the next one.
    const replaced = before === null ? null : replaceTomlTable(before, edit.table, edit.block)
    if (replaced !== null && replaced === before) return { kind: 'unchanged', path }
    after = replaced ?? `${before ? `${before.replace(/\n*$/, '\n')}\n` : ''}${edit.block}\n`
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
export async function readRegularFile(path: string): Promise<string | { refused: string }> {
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

/**
 * The document with the table `header` (its header line up to the next table header) replaced by
 * `block`; null when the table is not there. Unchanged text comes back identical.
 */
export function replaceTomlTable(text: string, header: string, block: string): string | null {
  const lines = text.split('\n')
  const start = lines.findIndex((line) => line.trim() === header)
  if (start < 0) return null
  let end = lines.findIndex((line, index) => index > start && /^\s*\[/.test(line))
  if (end < 0) end = lines.length
  // Keep the blank lines that separate it from the next table.
  while (end > start + 1 && lines[end - 1]?.trim() === '') end--
  const current = lines.slice(start, end).join('\n')
  if (current === block) return text
  return [...lines.slice(0, start), block, ...lines.slice(end)].join('\n')
}
