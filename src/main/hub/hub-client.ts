import { lstatSync } from 'node:fs'
import { createClient, type TypedClient } from '../../shared/ipc/client'
import type { ShellgateContract } from '../../shared/ipc/contract'
import { RpcError } from '../../shared/ipc/rpc-error'
import { HubError } from './hub-error'
import { readHubInfo } from './hub-info-read'
import { openHubSocket } from './hub-socket-transport'
import { resolveHubEndpoint } from './resolve-endpoint'
import { checkRunDir } from './run-dir'

export interface HubConnection {
  readonly client: TypedClient<ShellgateContract>
  readonly hubId: string
  /** The UI's bare origin; no secret in it. */
  readonly uiUrl: string | null
  close(): Promise<void>
  /**
   * Sends the close and lets this process exit without waiting for the hub's answer: for a
   * one-shot command (the hook, `ticket`, `exec`) whose result is in hand. The hub sees the same close.
   */
  leave(): void
  onClose(listener: () => void): () => void
}

/** Connect plus WebSocket handshake, then hub.hello: each bounded, so a wedged listener never hangs us. */
export const HUB_CONNECT_TIMEOUT_MS = 3_000
export const HUB_HELLO_TIMEOUT_MS = 3_000

/**
 * Null when no live hub serves this home (no run/, no socket, or a socket nobody listens on).
 * Throws a coded HubError for an endpoint that is unsafe, foreign, malformed or another hub's.
 * The connection has the `agent` role: the hub never gives the person's powers to its socket.
 */
export async function connectToHub(options: {
  home: string
  platform?: NodeJS.Platform
}): Promise<HubConnection | null> {
  const platform = options.platform ?? process.platform
  // The checks before connecting are synchronous: a few lstats of our own files, on every hook call.
  if (platform !== 'win32' && checkRunDir(`${options.home}/run`) === 'missing') return null
  const endpoint = await resolveHubEndpoint(options.home, platform)
  if (endpoint.kind === 'unix-socket') {
    const info = lstatSync(endpoint.path, { throwIfNoEntry: false })
    if (!info) return null
    if (!info.isSocket())
      throw new HubError('hub_foreign', `${endpoint.path} is not a socket; it is not a Shellgate hub`)
    if (info.uid !== (process.getuid?.() ?? info.uid))
      throw new HubError('hub_foreign', `${endpoint.path} belongs to another user; it is not your hub`)
  }

  const opened = await openHubSocket(endpoint, HUB_CONNECT_TIMEOUT_MS)
  if (opened.kind === 'stale') return null
  if (opened.kind === 'timeout')
    throw new HubError('hub_unresponsive', `${endpoint.path} accepted a connection but never answered`)
  if (opened.kind === 'foreign')
    throw new HubError('hub_foreign', `something else listens on ${endpoint.path}: ${opened.reason}`)
  const { transport } = opened
  try {
    const expected = readHubInfo(endpoint.infoFile)
    // Types only: the client never reads the schemas (the hub validated what it sends), and loading
    // them would cost every hook call the whole contract (issue 20).
    const client = createClient(null as unknown as ShellgateContract, transport)
    const hello = await withTimeout(client.request('hub.hello', {}), HUB_HELLO_TIMEOUT_MS).catch(
      (error: unknown) => {
        if (error instanceof HubError) throw error
        const why = error instanceof RpcError ? `${error.code}: ${error.message}` : 'no valid answer'
        throw new HubError('hub_foreign', `${endpoint.path} does not answer hub.hello (${why})`)
      },
    )
    if (hello.hubId !== expected.hubId) {
      throw new HubError(
        'hub_mismatch',
        `the hub on ${endpoint.path} is not the one ${endpoint.infoFile} names (another hub's endpoint file)`,
      )
    }
    return {
      client,
      hubId: hello.hubId,
      uiUrl: hello.uiUrl,
      close: () => transport.close(),
      leave: () => transport.leave(),
      onClose: (listener) => transport.onClose(listener),
    }
  } catch (error) {
    await transport.close()
    throw error
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise,
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new HubError('hub_unresponsive', `the hub did not answer hub.hello within ${ms} ms`)),
        ms,
      )
    }),
  ]).finally(() => clearTimeout(timer))
}
