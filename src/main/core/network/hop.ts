/** One HTTP exchange without redirects: what the client hands a transport and gets back. */
export interface HopRequest {
  url: URL
  method: string
  headers: Record<string, string>
  body: Buffer | undefined
  /** Aborts the exchange (timeout or caller); transports must stop reading and release sockets. */
  signal: AbortSignal
  maxBodyBytes: number
}

export interface HopResponse {
  status: number
  /** Lower-case names; repeated headers joined with ", " (set-cookie with "\n"). */
  headers: Record<string, string>
  body: Buffer
}

/** HTTP status codes whose Location the client may follow when redirects are on. */
export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])
