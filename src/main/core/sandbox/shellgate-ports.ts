import { SANDBOX_PROXY_PORT_INSIDE } from '../../../shared/settings'
import { ownListeningPorts } from './own-ports'

/**
 * Why a host loopback port can never be allowed for a workspace, or null. Shellgate's own ports
 * (the browser-mode page, anything else it serves) would hand a sandboxed command the person's
 * controls, so they are refused in settings and again at every connection: a port that was free
 * when it was allowed may be Shellgate's now. (The hub's socket and the proxy are Unix sockets a
 * port number cannot name.)
 */
export async function shellgatePortRefusal(
  port: number,
  platform: NodeJS.Platform,
  knownOwnPorts: readonly number[],
): Promise<string | null> {
  if (port === SANDBOX_PROXY_PORT_INSIDE) {
    return `${port} is the sandbox proxy's own port inside every command; it can never be allowed`
  }
  if (knownOwnPorts.includes(port) || (await ownListeningPorts(platform)).has(port)) {
    return `127.0.0.1:${port} is Shellgate's own (its browser-mode page or another of its servers); it can never be allowed`
  }
  return null
}
