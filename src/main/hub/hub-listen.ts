import { chmod } from 'node:fs/promises'
import type { ListenOptions, Server } from 'node:net'
import type { HubEndpoint } from './endpoint'

/** The two OS calls that decide who may open the endpoint; injected so each platform's are asserted. */
export interface ListenOps {
  listen(server: Server, options: ListenOptions): Promise<void>
  chmod(path: string, mode: number): Promise<void>
}

export const nodeListenOps: ListenOps = {
  listen: (server, options) =>
    new Promise<void>((resolve, reject) => {
      const onError = (error: Error) => reject(error)
      server.once('error', onError)
      server.listen(options, () => {
        server.off('error', onError)
        resolve()
      })
    }),
  chmod: (path, mode) => chmod(path, mode),
}

/**
 * Unix: the socket is created inside run/ (0700), so nobody else can reach it even before the
 * chmod to 0600 that follows listen(). The peer's uid is not checked per connection: Node exposes
 * no SO_PEERCRED, and the 0700 directory already admits only this user (and root).
 *
 * Windows: `readableAll`/`writableAll` stay false, so libuv keeps the pipe's default DACL (the
 * creator, SYSTEM and Administrators get full control; other users cannot open it for writing,
 * which every RPC needs) and it creates the first instance with FILE_FLAG_FIRST_PIPE_INSTANCE, so a
 * pipe someone else created first makes listen fail rather than be shared. What a native helper
 * would add (Node cannot): an explicit DACL naming only the current user's SID, PIPE_REJECT_REMOTE_
 * CLIENTS, and a client-side check that GetNamedPipeServerProcessId's owner is the current user.
 */
export async function listenOnEndpoint(server: Server, endpoint: HubEndpoint, ops: ListenOps): Promise<void> {
  if (endpoint.kind === 'named-pipe') {
    await ops.listen(server, { path: endpoint.path, readableAll: false, writableAll: false })
    return
  }
  await ops.listen(server, { path: endpoint.path, readableAll: false, writableAll: false })
  await ops.chmod(endpoint.path, 0o600)
}
