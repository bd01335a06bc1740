import { posixHubEndpoint } from './endpoint.posix'
import { win32HubEndpoint } from './endpoint.win32'

/** Where a hub listens: a Unix socket in SHELLGATE_HOME/run, or a per-user named pipe on Windows. */
export type HubEndpoint =
  | { kind: 'unix-socket'; path: string; runDir: string; infoFile: string; lockFile: string }
  | { kind: 'named-pipe'; path: string; runDir: string; infoFile: string; lockFile: string }

export interface HubEndpointInput {
  /** SHELLGATE_HOME, absolute. */
  home: string
  platform: NodeJS.Platform
  /** The OS user name; part of the pipe name on Windows (pipes share one machine-wide namespace). */
  user: string
  /**
   * Windows only: a random value kept in run/pipe.salt (readOrCreatePipeSalt) so another user
   * cannot compute the pipe name and create it first.
   */
  pipeSalt?: string
}

/** One function per platform behind this facade, so the Windows path is tested on Linux. */
export function hubEndpoint(input: HubEndpointInput): HubEndpoint {
  return input.platform === 'win32' ? win32HubEndpoint(input) : posixHubEndpoint(input)
}
