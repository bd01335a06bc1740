import type { FileHandle } from 'node:fs/promises'
import { openOutputFileForRead, SwappedOutputFileError } from '../exec/output-file-read'
import type { OutputFileRef } from '../exec/types'
import { binaryOutputPlaceholder, completeUtf8Length, firstCharStart, looksBinary } from '../exec/utf8'

export interface OutputSlice {
  /** Decoded text; a cut never leaves half a UTF-8 character at either end. */
  text: string
  /** File size when read. */
  size: number
  /** Byte offset of the slice in the file. */
  offset: number
  /** Bytes of the file left out of the slice. */
  omittedBytes: number
  /** Why nothing was read: the path no longer names the file the command wrote (issue 15.3). */
  refused?: string
}

/** The first `maxBytes` bytes of an output file (what a running task has printed first). */
export function readOutputHead(file: OutputFileRef, maxBytes: number): Promise<OutputSlice> {
  return readSlice(file, maxBytes, 'head')
}

/** The last `maxBytes` bytes of an output file. */
export function readOutputTail(file: OutputFileRef, maxBytes: number): Promise<OutputSlice> {
  return readSlice(file, maxBytes, 'tail')
}

/**
 * Reads go through the path, but only while it is the file the executor created: a command can
 * delete its output file and put a symlink or a hard link to ~/.ssh/id_rsa in its place, and the
 * tail would then show that file to the model and the UI. The refusal is shown instead.
 */
async function readSlice(file: OutputFileRef, maxBytes: number, end: 'head' | 'tail'): Promise<OutputSlice> {
  let handle: FileHandle | null
  try {
    handle = await openOutputFileForRead(file.path, file.identity, process.platform)
  } catch (error) {
    if (!(error instanceof SwappedOutputFileError)) throw error
    const refused = `output not read: ${error.message}`
    return { text: `[${refused}]`, size: 0, offset: 0, omittedBytes: 0, refused }
  }
  // Deleted after the run: nothing left to show.
  if (handle === null) return { text: '', size: 0, offset: 0, omittedBytes: 0 }
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

async function fileStartsBinary(handle: FileHandle): Promise<boolean> {
  const head = Buffer.alloc(4096)
  const { bytesRead } = await handle.read(head, 0, head.length, 0)
  return looksBinary(head.subarray(0, bytesRead))
}
