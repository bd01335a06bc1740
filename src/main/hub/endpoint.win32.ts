import { createHash } from 'node:crypto'
import { win32 } from 'node:path'
import type { HubEndpoint, HubEndpointInput } from './endpoint-types'

/**
 * Named pipes live in one machine-wide namespace, so the name carries the user and a hash of the
 * home and of a per-home random salt (run/pipe.salt, readable by this user only): two homes of one
 * user get two hubs, and another user cannot compute the name to create the pipe first (squatting).
 * The pipe's access rules are what keep other users out (see hub-listen.ts).
 */
export function win32HubEndpoint(input: HubEndpointInput): HubEndpoint {
  const runDir = win32.join(input.home, 'run')
  const user =
    input.user
      .toLowerCase()
      .replace(/[^a-z0-9_.-]/g, '_')
      .slice(0, 64) || 'user'
  const homeHash = createHash('sha256')
    .update(`${win32.resolve(input.home).toLowerCase()}\0${input.pipeSalt ?? ''}`)
    .digest('hex')
  return {
    kind: 'named-pipe',
    path: `\\\\.\\pipe\\shellgate-${user}-${homeHash.slice(0, 16)}`,
    runDir,
    infoFile: win32.join(runDir, 'hub.json'),
    lockFile: win32.join(runDir, 'hub.lock'),
  }
}
