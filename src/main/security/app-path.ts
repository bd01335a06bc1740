import { isAbsolute, join, normalize, relative, sep } from 'node:path'

/**
 * Maps a URL path to a file inside rootDir, or null when it would leave rootDir. Both the
 * `app://` protocol (Electron) and the browser-mode server serve files only through this.
 */
export function resolveAppPath(rootDir: string, urlPathname: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPathname)
  } catch {
    return null
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null
  const relativePath = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '')
  if (isAbsolute(relativePath) || /^[a-zA-Z]:/.test(relativePath)) return null
  const root = normalize(rootDir)
  const candidate = normalize(join(root, relativePath))
  const within = relative(root, candidate)
  if (within === '' || within.startsWith(`..${sep}`) || within === '..' || isAbsolute(within)) return null
  return candidate
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
}

export function contentTypeFor(filePath: string): string {
  const dot = filePath.lastIndexOf('.')
  return (dot >= 0 && CONTENT_TYPES[filePath.slice(dot).toLowerCase()]) || 'application/octet-stream'
}
