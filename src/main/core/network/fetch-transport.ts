import type { HopRequest, HopResponse } from './hop'
import { checkDeclaredLength, readCappedBody } from './response-body'

/**
 * Seed 000: with no proxy and no custom CA the global fetch is used. `redirect: 'manual'` hands
 * every 3xx back to the client, which alone decides whether and where to follow.
 */
export async function sendWithFetch(hop: HopRequest): Promise<HopResponse> {
  const response = await fetch(hop.url, {
    method: hop.method,
    headers: hop.headers,
    body: hop.body,
    redirect: 'manual',
    signal: hop.signal,
  })
  try {
    checkDeclaredLength(response.headers.get('content-length'), hop.maxBodyBytes)
  } catch (error) {
    await response.body?.cancel()
    throw error
  }
  const body = response.body ? await readCappedBody(response.body, hop.maxBodyBytes) : Buffer.alloc(0)
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    headers[name] = value
  })
  return { status: response.status, headers, body }
}
