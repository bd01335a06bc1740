import { userInfo } from 'node:os'
import { type HubEndpoint, hubEndpoint } from './endpoint'
import { readOrCreatePipeSalt } from './run-dir'

/** The endpoint for a home on this machine: the pure path function plus what it needs from the OS. */
export async function resolveHubEndpoint(home: string, platform: NodeJS.Platform): Promise<HubEndpoint> {
  const user = userInfo().username
  const bare = hubEndpoint({ home, platform, user })
  if (bare.kind !== 'named-pipe') return bare
  return hubEndpoint({ home, platform, user, pipeSalt: await readOrCreatePipeSalt(bare.runDir) })
}
