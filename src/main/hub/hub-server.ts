import { randomBytes } from 'node:crypto'
import { lstat, mkdir, unlink } from 'node:fs/promises'
import { createServer } from 'node:http'
import { join, win32 } from 'node:path'
import type { ShellgateContract } from '../../shared/ipc/contract'
import type { Dispatcher } from '../ipc/dispatcher'
import type { EventHub } from '../ipc/event-hub'
import { createWebSocketRpc } from '../transports/websocket'
import type { HubEndpoint } from './endpoint'
import { HubError } from './hub-error'
import { type HubInfo, readHubInfo, writeHubInfo } from './hub-info'
import { listenOnEndpoint, type ListenOps, nodeListenOps } from './hub-listen'
import { acquireHubLock } from './hub-lock'
import { probeSocket } from './probe-socket'
import { resolveHubEndpoint } from './resolve-endpoint'
import { ensureRunDir } from './run-dir'

export const HUB_RPC_PATH = '/rpc'
/** MCP sessions, `shellgate ui`, hooks: far more than a person runs, few enough to bound memory. */
export const MAX_HUB_CONNECTIONS = 64
const STALE_PROBE_TIMEOUT_MS = 2_000

export interface HubServeOptions {
  dispatcher: Dispatcher
  hub: EventHub<ShellgateContract>
  version: string
  /** The UI's bare origin (no credential), or null when this hub serves no browser UI. */
  uiUrl: string | null
  listenOps?: ListenOps
}

export interface RunningHub {
  readonly info: HubInfo
  readonly endpoint: HubEndpoint
  /** Stops listening and removes the endpoint, hub.json and the lock, each only while still ours. */
  close(): Promise<void>
}

/** This process holds the hub lock: it is the hub-to-be, and nobody else will start one. */
export interface HubClaim {
  readonly endpoint: HubEndpoint
  /** Writes hub.json and listens; after this, clients find the hub. */
  serve(options: HubServeOptions): Promise<RunningHub>
  /** Gives the claim up without serving (e.g. the UI port was busy). */
  release(): Promise<void>
}

export type ClaimOutcome = { kind: 'claimed'; claim: HubClaim } | { kind: 'running'; pid: number | null }

/**
 * Becomes the one hub of this SHELLGATE_HOME, or says which pid already is. Holding run/hub.lock
 * is what makes a hub, so it is taken before a core exists (a losing starter never touches the
 * home). A socket left at the path by a dead hub is removed; anything else there (a regular file,
 * a live listener without the lock) is refused and left alone.
 */
export async function claimHub(options: {
  home: string
  platform: NodeJS.Platform
  warn: (message: string) => void
}): Promise<ClaimOutcome> {
  const { platform } = options
  if (platform === 'win32') await mkdir(win32.join(options.home, 'run'), { recursive: true })
  else await ensureRunDir(join(options.home, 'run'), options.warn)
  const endpoint = await resolveHubEndpoint(options.home, platform)
  const outcome = await acquireHubLock(endpoint.lockFile)
  if (outcome.kind === 'held') return { kind: 'running', pid: outcome.pid }
  const { lock } = outcome
  try {
    if (endpoint.kind === 'unix-socket') await clearStaleSocket(endpoint.path)
  } catch (error) {
    await lock.release()
    throw error
  }
  return {
    kind: 'claimed',
    claim: {
      endpoint,
      release: () => lock.release(),
      async serve(serveOptions) {
        try {
          return await serveHub(options.home, endpoint, serveOptions, () => lock.release())
        } catch (error) {
          await lock.release()
          throw error
        }
      },
    },
  }
}

async function serveHub(
  home: string,
  endpoint: HubEndpoint,
  options: HubServeOptions,
  releaseLock: () => Promise<void>,
): Promise<RunningHub> {
  const info: HubInfo = {
    hubId: randomBytes(18).toString('base64url'),
    pid: process.pid,
    version: options.version,
    uiUrl: options.uiUrl,
    startedAt: new Date().toISOString(),
    home,
  }
  // Written before listen(): whoever reaches the endpoint finds this hub's file already there.
  await writeHubInfo(endpoint.infoFile, info)
  const rpc = createWebSocketRpc(options.dispatcher, options.hub, {
    role: 'agent',
    maxConnections: MAX_HUB_CONNECTIONS,
  })
  const server = createServer((_request, response) => {
    response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' })
    response.end('the Shellgate hub speaks WebSocket RPC on /rpc only\n')
  })
  server.on('upgrade', (request, socket, head) => {
    const path = new URL(request.url ?? '/', 'http://hub').pathname
    // No browser can reach a Unix socket, but a request that carries an Origin came from one
    // (through some proxy): the person's UI never uses this endpoint.
    if (path !== HUB_RPC_PATH || request.headers.origin !== undefined) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
      return
    }
    rpc.accept(request, socket, head)
  })
  try {
    await listenOnEndpoint(server, endpoint, options.listenOps ?? nodeListenOps)
  } catch (error) {
    // Nobody will answer for this hubId: leave no endpoint file that names it.
    await rpc.close()
    await unlink(endpoint.infoFile).catch(() => undefined)
    throw error
  }
  let closed: Promise<void> | null = null
  return {
    info,
    endpoint,
    close() {
      closed ??= (async () => {
        await rpc.close()
        server.closeAllConnections()
        // server.close() unlinks the socket itself; hub.json only while it is still ours.
        await new Promise<void>((resolve) => server.close(() => resolve()))
        const current = readHubInfoOrNull(endpoint.infoFile)
        if (current?.hubId === info.hubId) await unlink(endpoint.infoFile).catch(() => undefined)
        await releaseLock()
      })()
      return closed
    },
  }
}

async function clearStaleSocket(path: string): Promise<void> {
  const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null
    throw error
  })
  if (!info) return
  if (!info.isSocket()) {
    throw new HubError(
      'hub_foreign',
      `${path} exists and is not a socket; Shellgate never deletes such a file. Move it away, then start again`,
    )
  }
  if (info.uid !== (process.getuid?.() ?? info.uid)) {
    throw new HubError('hub_foreign', `${path} is a socket of another user; Shellgate will not take it over`)
  }
  const probe = await probeSocket(path, STALE_PROBE_TIMEOUT_MS)
  if (probe === 'missing') return
  if (probe !== 'refused') {
    // We hold the lock, so no hub of ours is there: something else is listening on our path.
    throw new HubError(
      'hub_foreign',
      `another process is listening on ${path} without holding ${path.replace(/hub\.sock$/, 'hub.lock')}; stop it, then start again`,
    )
  }
  await unlink(path)
}

function readHubInfoOrNull(file: string): HubInfo | null {
  try {
    return readHubInfo(file)
  } catch {
    return null
  }
}
