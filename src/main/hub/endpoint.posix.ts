import { join } from 'node:path'
import type { HubEndpoint, HubEndpointInput } from './endpoint-types'

/**
 * Unix sockets have a short path limit (108 bytes on Linux, 104 on macOS); a longer home cannot
 * host a socket, and we say so instead of letting listen() fail obscurely.
 */
export const MAX_SOCKET_PATH_BYTES = 103

export function posixHubEndpoint(input: HubEndpointInput): HubEndpoint {
  const runDir = join(input.home, 'run')
  return {
    kind: 'unix-socket',
    path: join(runDir, 'hub.sock'),
    runDir,
    infoFile: join(runDir, 'hub.json'),
    lockFile: join(runDir, 'hub.lock'),
  }
}
