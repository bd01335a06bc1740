import { openOutputFileForRead, SwappedOutputFileError } from '../exec/output-file-read'
import type { OutputFileRef } from '../exec/types'

export interface OutputBytes {
  bytes: Buffer
  /** Byte offset of `bytes` in the file. */
  from: number
  /** File size when read. */
  size: number
  /** Why nothing was read: the path no longer names the file the command wrote. */
  refused?: string
}

/**
 * Raw bytes of an output file from a byte cursor (issue 23.2's `since`, and the desk's terminal
 * catching up), at most `maxBytes` of them, through the same identity-checked, no-follow open as
 * every other read. A cursor past the end reads nothing; a negative one is refused by the caller.
 */
export async function readOutputBytes(
  file: OutputFileRef,
  from: number,
  maxBytes: number,
): Promise<OutputBytes> {
  let handle: Awaited<ReturnType<typeof openOutputFileForRead>>
  try {
    handle = await openOutputFileForRead(file.path, file.identity, process.platform)
  } catch (error) {
    if (!(error instanceof SwappedOutputFileError)) throw error
    return { bytes: Buffer.alloc(0), from, size: 0, refused: `output not read: ${error.message}` }
  }
  if (handle === null) return { bytes: Buffer.alloc(0), from, size: 0 }
  try {
    const { size } = await handle.stat()
    const start = Math.min(from, size)
    const length = Math.min(size - start, maxBytes)
    const buffer = Buffer.alloc(length)
    const { bytesRead } = await handle.read(buffer, 0, length, start)
    return { bytes: buffer.subarray(0, bytesRead), from: start, size }
  } finally {
    await handle.close()
  }
}
