/**
 * Why a hub endpoint was refused. Every refusal names the file at fault and never quotes its
 * content: run/ may hold files another program planted.
 */
export type HubErrorCode =
  /** run/hub.json is missing while a hub answers, not JSON, or not the expected shape. */
  | 'hub_malformed'
  /** Something that is not our hub is at the endpoint path (a regular file, another server). */
  | 'hub_foreign'
  /** The hub that answered is not the one run/hub.json describes ("a key from another hub"). */
  | 'hub_mismatch'
  /** run/ is not a private directory of this user. */
  | 'hub_run_dir_unsafe'
  /** Connected, but no handshake within the bound. */
  | 'hub_unresponsive'
  /** Another hub holds the lock but never came up within the bound. */
  | 'hub_not_ready'
  /** The detached hub exited before its endpoint answered. */
  | 'hub_start_failed'

export class HubError extends Error {
  override name = 'HubError'

  constructor(
    readonly code: HubErrorCode,
    message: string,
  ) {
    super(message)
  }
}
