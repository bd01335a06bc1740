import { createHash } from 'node:crypto'
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { type FileHandle, open } from 'node:fs/promises'

/**
 * Files the hub owns (settings, trust records, sessions, the audit log) live in folders other
 * processes of the same user can write to, so any of them may have been replaced by a symlink (to
 * a file we would then overwrite or leak) or a FIFO (whose open() blocks a libuv thread forever,
 * and a blocked thread even stops process.exit). Every open here is O_NOFOLLOW | O_NONBLOCK and is
 * fstat-checked before a byte moves; O_NONBLOCK has no effect on a regular file.
 */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0
const NONBLOCK = constants.O_NONBLOCK ?? 0
const READ_FLAGS = constants.O_RDONLY | NOFOLLOW | NONBLOCK
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW | NONBLOCK

const NOT_REGULAR =
  'is not a regular file (a FIFO, device or folder), which is refused; nothing was read or written through it'

/** A hub-owned file that is not a plain regular file, or is too big; nothing was read or written. */
export class UnsafeFileError extends Error {
  override name = 'UnsafeFileError'
  constructor(
    readonly file: string,
    readonly reason: 'symlink' | 'not_regular' | 'too_big',
    /** The message without the path, e.g. "is a symlink, …". */
    readonly detail: string,
  ) {
    super(`${file} ${detail}`)
  }
}

export interface OwnedFileContent {
  text: string
  /** sha256 of the bytes, hex: what compare-and-swap writes compare. */
  hash: string
  bytes: number
}

export function contentHash(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex')
}

/** Null when the file does not exist; throws UnsafeFileError for a symlink, FIFO, device or an over-cap file. */
export async function readOwnedFile(path: string, maxBytes: number): Promise<OwnedFileContent | null> {
  const handle = await openChecked(path, READ_FLAGS)
  if (handle === null) return null
  try {
    const { size } = await handle.stat()
    const buffer = bufferFor(path, size, maxBytes)
    let filled = 0
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled)
      if (bytesRead === 0) break
      filled += bytesRead
    }
    return contentOf(path, buffer, filled, maxBytes)
  } finally {
    await handle.close()
  }
}

/**
 * The same read without the thread pool, for a small file read on a command's critical path (a
 * workspace's network file, once per networked command): each await of the async read is a
 * thread-pool round trip, and on a machine whose threads sleep between commands those cost far
 * more than the read itself. O_NONBLOCK keeps a FIFO's open from blocking here too.
 */
export function readOwnedFileSync(path: string, maxBytes: number): OwnedFileContent | null {
  let fd: number
  try {
    fd = openSync(path, READ_FLAGS)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw openError(path, error)
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) throw new UnsafeFileError(path, 'not_regular', NOT_REGULAR)
    const buffer = bufferFor(path, stats.size, maxBytes)
    let filled = 0
    while (filled < buffer.length) {
      const bytesRead = readSync(fd, buffer, filled, buffer.length - filled, filled)
      if (bytesRead === 0) break
      filled += bytesRead
    }
    return contentOf(path, buffer, filled, maxBytes)
  } finally {
    closeSync(fd)
  }
}

/** Room for the file and one byte past the cap: a file that grows while we read is refused, not buffered. */
function bufferFor(path: string, size: number, maxBytes: number): Buffer {
  if (size > maxBytes)
    throw new UnsafeFileError(path, 'too_big', `is ${size} bytes, over the ${maxBytes}-byte limit`)
  return Buffer.alloc(Math.min(size, maxBytes) + 1)
}

function contentOf(path: string, buffer: Buffer, filled: number, maxBytes: number): OwnedFileContent {
  if (filled > maxBytes)
    throw new UnsafeFileError(path, 'too_big', `grew over the ${maxBytes}-byte limit while being read`)
  const bytes = buffer.subarray(0, filled)
  return { text: bytes.toString('utf8'), hash: contentHash(bytes), bytes: filled }
}

/** Opens for appending (created 0600 when missing); the caller closes it. */
export async function openOwnedFileForAppend(path: string, mode = 0o600): Promise<FileHandle> {
  const handle = await openChecked(path, APPEND_FLAGS, mode)
  // O_CREAT always yields a handle or an error, never "missing".
  return handle!
}

/** Opens for reading as a stream source, or null when missing; the caller closes it. */
export function openOwnedFileForRead(path: string): Promise<FileHandle | null> {
  return openChecked(path, READ_FLAGS)
}

async function openChecked(path: string, flags: number, mode?: number): Promise<FileHandle | null> {
  let handle: FileHandle
  try {
    handle = await open(path, flags, mode)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && (flags & constants.O_CREAT) === 0) return null
    throw openError(path, error)
  }
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) {
      throw new UnsafeFileError(path, 'not_regular', NOT_REGULAR)
    }
  } catch (error) {
    await handle.close()
    throw error
  }
  return handle
}

/** What a failed open means: ELOOP (O_NOFOLLOW met a symlink), ENXIO (a FIFO with no reader, opened for writing). */
function openError(path: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ELOOP' || code === 'EMLINK')
    return new UnsafeFileError(
      path,
      'symlink',
      'is a symlink, not a regular file, which is refused; nothing was read or written through it',
    )
  if (code === 'ENXIO') return new UnsafeFileError(path, 'not_regular', NOT_REGULAR)
  return error
}

/**
 * JSON.parse's own message quotes the text around the fault, and a refused file may hold a secret
 * (it may be a symlink target or another program's file): only the position is kept.
 */
export function parseJsonQuietly(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message)?.[1]
    return {
      ok: false,
      reason: position ? `is not valid JSON (at character ${position})` : 'is not valid JSON',
    }
  }
}
