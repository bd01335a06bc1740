import { randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * One cookie name per port: cookies ignore ports, so two `serve` runs on 127.0.0.1 would
 * otherwise overwrite each other's token and log each other's pages out.
 */
export function tokenCookieName(port: number): string {
  return `shellgate_token_${port}`
}

/** 256 random bits per run: the only thing between a web page on this machine and the shell. */
export function createAccessToken(): string {
  return randomBytes(32).toString('base64url')
}

export function tokenMatches(expected: string, candidate: string | null | undefined): boolean {
  if (typeof candidate !== 'string') return false
  const a = Buffer.from(expected)
  const b = Buffer.from(candidate)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The token from `?token=` or, failing that, from our cookie. */
export function presentedToken(url: URL, cookieHeader: string | undefined, port: number): string | null {
  const fromQuery = url.searchParams.get('token')
  if (fromQuery) return fromQuery
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name === tokenCookieName(port)) return value.join('=')
  }
  return null
}
