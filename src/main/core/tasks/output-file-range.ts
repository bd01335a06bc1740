import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import { binaryOutputPlaceholder, completeUtf8Length, firstCharStart, looksBinary } from '../exec/utf8'

/** Output files are ours; a symlink planted at that path is refused, never followed (0 where unsupported). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)

export interface OutputSlice {
  /** Decoded text; a cut never leaves half a UTF-8 character at either end. */
  text: string
  /** File size when read. */
  size: number
  /** Byte offset of the slice in the file. */
  offset: number
  /** Bytes of the file left out of the slice. */
  omittedBytes: number
}

/** The first `maxBytes` bytes of an output file (what a running task has printed first). */
export function readOutputHead(path: string, maxBytes: number): Promise<OutputSlice> {
  return readSlice(path, maxBytes, 'head')
}

/** The last `maxBytes` bytes of an output file. */
export function readOutputTail(path: string, maxBytes: number): Promise<OutputSlice> {
  return readSlice(path, maxBytes, 'tail')
}

async function readSlice(path: string, maxBytes: number, end: 'head' | 'tail'): Promise<OutputSlice> {
  let handle: Awaited<ReturnType<typeof open>>
  try {
    handle = await open(path, OPEN_FLAGS)
  } catch (error) {
    // The child has not created its file yet: nothing printed so far.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { text: '', size: 0, offset: 0, omittedBytes: 0 }
    throw error
  }
  try {
    const { size } = await handle.stat()
    const length = Math.min(size, maxBytes)
    const offset = end === 'head' ? 0 : size - length
    const buffer = Buffer.alloc(length)
    const { bytesRead } = await handle.read(buffer, 0, length, offset)
    const bytes = buffer.subarray(0, bytesRead)
    // Binary output never reaches a view raw (issue 15.8): the placeholder the model sees instead.
    if (bytes.includes(0) || (offset > 0 && (await fileStartsBinary(handle))))
      return { text: binaryOutputPlaceholder(size), size, offset, omittedBytes: size - bytesRead }
    // A slice cut inside the file must not show half a character at either end.
    const start = offset > 0 ? firstCharStart(bytes) : 0
    const stop = offset + bytesRead < size ? completeUtf8Length(bytes) : bytes.length
    return {
      text: bytes.subarray(start, Math.max(start, stop)).toString('utf8'),
      size,
      offset,
      omittedBytes: size - bytesRead,
    }
  } finally {
    await handle.close()
  }
}

async function fileStartsBinary(handle: Awaited<ReturnType<typeof open>>): Promise<boolean> {
  const head = Buffer.alloc(4096)
  const { bytesRead } = await handle.read(head, 0, head.length, 0)
  return looksBinary(head.subarray(0, bytesRead))
}
