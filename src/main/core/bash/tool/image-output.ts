/**
 * A stdout that is exactly one `data:image/…;base64,…` URL becomes an image block for the model
 * (seed 003, bash-image-output). Without an image library here, the bytes are kept as they are,
 * and only a payload whose header matches its declared type is trusted; anything else stays text.
 */

export const IMAGE_OUTPUT_MAX_BYTES = 20 * 1024 * 1024

export interface ImageBlock {
  type: 'image'
  mediaType: string
  /** base64, as printed. */
  data: string
}

const DATA_URL = /^data:(image\/(?:png|jpeg|jpg|gif|webp));base64,([A-Za-z0-9+/]+={0,2})$/

const MAGIC: Readonly<Record<string, (bytes: Buffer) => boolean>> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) =>
    b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a',
  'image/webp': (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
}

/** The image in `stdout`, or null when it is not exactly one valid image data URL within the cap. */
export function parseImageOutput(stdout: string): ImageBlock | null {
  if (stdout.length > IMAGE_OUTPUT_MAX_BYTES || !stdout.startsWith('data:image/')) return null
  const match = DATA_URL.exec(stdout.trim())
  if (!match) return null
  const mediaType = match[1] === 'image/jpg' ? 'image/jpeg' : (match[1] as string)
  const data = match[2] as string
  if (data.length % 4 !== 0) return null
  const head = Buffer.from(data.slice(0, 24), 'base64')
  return MAGIC[mediaType]?.(head) ? { type: 'image', mediaType, data } : null
}
