/** The hub endpoint's types, shared by the facade and each platform's file (none imports another). */

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
