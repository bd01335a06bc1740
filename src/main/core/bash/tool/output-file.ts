import { rm } from 'node:fs/promises'
import { openOutputFileForRead, SwappedOutputFileError } from '../../exec/output-file-read'
import type { FileIdentity } from '../../exec/types'

/**
 * The Bash output file after the run: read the head the model may see inline, and delete the file
 * when that head is all of it (seed 003: a foreground file is kept only when the output was cut).
 */

export interface SettledOutput {
  /** Up to `inlineLimit` bytes, cut on a UTF-8 character boundary. */
  head: string
  totalBytes: number
  /** The kept file when the output was over the limit; null when it was deleted. */
  persistedPath: string | null
  /** Why nothing was read: the path was swapped for another file after the run. */
  refused?: string
}

export async function settleOutputFile(
  path: string,
  inlineLimit: number,
  keep = false,
  /** The file the run created (ExecutionResult.outputIdentity); without it only symlinks are refused. */
  identity?: FileIdentity,
  platform: NodeJS.Platform = process.platform,
): Promise<SettledOutput> {
  const handle = await openOutputFileForRead(path, identity, platform).catch((error: unknown) => {
    if (error instanceof SwappedOutputFileError) return error
    throw error
  })
  // Nothing is read and nothing is deleted: whatever is at the path now is not ours.
  if (handle instanceof SwappedOutputFileError)
    return { head: '', totalBytes: 0, persistedPath: null, refused: `output not read: ${handle.message}` }
  if (handle === null) return { head: '', totalBytes: 0, persistedPath: null }
  let head: Buffer
  let totalBytes: number
  try {
    totalBytes = (await handle.stat()).size
    const buffer = Buffer.alloc(Math.min(totalBytes, inlineLimit))
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    head = buffer.subarray(0, utf8Boundary(buffer.subarray(0, bytesRead)))
  } finally {
    await handle.close()
  }
  const over = totalBytes > inlineLimit
  if (!over && !keep) await rm(path, { force: true })
  return { head: head.toString('utf8'), totalBytes, persistedPath: over || keep ? path : null }
}

/** The length of the longest prefix that does not end inside a multi-byte character. */
export function utf8Boundary(bytes: Buffer): number {
  let end = bytes.length
  let back = 0
  while (back < 4 && end - back - 1 >= 0 && ((bytes[end - back - 1] as number) & 0xc0) === 0x80) back += 1
  const lead = bytes[end - back - 1]
  if (lead === undefined) return end
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1
  if (need > back + 1) end -= back + 1
  return end
}
