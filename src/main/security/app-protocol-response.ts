import { readFile } from 'node:fs/promises'
import { APP_HOST } from '../../shared/ipc/channels'
import { contentTypeFor, resolveAppPath } from './app-path'
import { SECURITY_HEADERS } from './content-security-policy'

/**
 * What the app:// protocol answers for `requestUrl`: a file of the renderer directory with the
 * security headers, or a 404 that carries them too. Pure Node, so the headers Electron hands the
 * page are tested as sent (issue 15.18), not as the constant they are built from.
 */
export async function appProtocolResponse(rendererDir: string, requestUrl: string): Promise<Response> {
  const url = new URL(requestUrl)
  const filePath = url.host === APP_HOST ? resolveAppPath(rendererDir, url.pathname) : null
  if (!filePath) return new Response('not found', { status: 404, headers: SECURITY_HEADERS })
  try {
    const body = await readFile(filePath)
    return new Response(body, { headers: { 'Content-Type': contentTypeFor(filePath), ...SECURITY_HEADERS } })
  } catch {
    return new Response('not found', { status: 404, headers: SECURITY_HEADERS })
  }
}
