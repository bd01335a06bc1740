import { PERSISTED_PREVIEW_CHARS } from './output-limit'

/**
 * The envelope a model sees instead of output over the inline limit (seed 003, result-persistence):
 * the total size, where the whole output is kept, and the first 2000 characters.
 */
export function formatPersistedOutput(totalBytes: number, path: string, head: string): string {
  const preview = [...head].slice(0, PERSISTED_PREVIEW_CHARS).join('')
  const more = preview.length < head.length || Buffer.byteLength(head) < totalBytes ? '\n…' : ''
  return [
    '<persisted-output>',
    `Output too large (${formatBytes(totalBytes)}). Full output saved to: ${path}`,
    '',
    `Preview (first ${PERSISTED_PREVIEW_CHARS} characters):`,
    `${preview}${more}`,
    '</persisted-output>',
  ].join('\n')
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  const units = ['KiB', 'MiB', 'GiB', 'TiB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  return `${value.toFixed(1)} ${units[unit]}, ${bytes} bytes`
}
