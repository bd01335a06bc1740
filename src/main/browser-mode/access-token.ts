import { randomBytes, timingSafeEqual } from 'node:crypto'

export const TOKEN_COOKIE = 'shellgate_token'

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
export function presentedToken(url: URL, cookieHeader: string | undefined): string | null {
  const fromQuery = url.searchParams.get('token')
  if (fromQuery) return fromQuery
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name === TOKEN_COOKIE) return value.join('=')
  }
  return null
}
