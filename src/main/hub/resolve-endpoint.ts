import { userInfo } from 'node:os'
import { type HubEndpoint, hubEndpoint } from './endpoint'
import { readOrCreatePipeSalt } from './run-dir'

/**
 * The endpoint for a home on this machine: the pure path function plus what it needs from the OS.
 * The user name is only part of a Windows pipe's name; elsewhere it is not looked up (userInfo()
 * reads the user database on every hook call).
 */
export async function resolveHubEndpoint(home: string, platform: NodeJS.Platform): Promise<HubEndpoint> {
  if (platform !== 'win32') return hubEndpoint({ home, platform, user: '' })
  const user = userInfo().username
  const bare = hubEndpoint({ home, platform, user })
  return hubEndpoint({ home, platform, user, pipeSalt: await readOrCreatePipeSalt(bare.runDir) })
}
