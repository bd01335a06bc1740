import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SANDBOX_PROXY_PORT_INSIDE } from '../../../shared/settings'
import { createEgressPolicy, type EgressPolicyOptions } from './egress-policy'
import { startEgressProxy } from './egress-proxy'
import type { ParentProxyFor } from './parent-proxy'
import { PROXY_SOCKET_NAME, portSocketName } from './network-profile'
import { startPortForwarder } from './port-forwarder'
import type { SandboxEgress } from './types'

/** sun_path is 104 bytes on macOS (108 on Linux); the longest name put in the folder is port-65535.sock. */
const SOCKET_PATH_MAX_BYTES = 100

export interface NetworkRunOptions {
  platform: NodeJS.Platform
  /** <SHELLGATE_HOME>/sandbox: the run's socket folder is made in it (under the temp dir when too deep). */
  baseDir: string
  allowedPorts: number[]
  /** Linux: a namespace made ahead with the proxy's bridge in it (spare-network.linux.ts); its folder is used. */
  spare?: { socketDir: string; namespacePath: string }
  /** The person's own proxy per destination (a corporate one); absent: the proxy connects direct. */
  parent?: ParentProxyFor
  policy: Omit<EgressPolicyOptions, 'signal'>
  /** Why a host loopback port must not be reached now (one of Shellgate's own), or null; asked per connection. */
  portRefusal(port: number): Promise<string | null>
  onPortConnection(outcome: { port: number; allowed: boolean; reason: string }): void
}

export interface NetworkRun {
  egress: SandboxEgress
  /** Withdraws any card still waiting, closes the proxy and the forwarders, removes the folder. */
  release(): Promise<void>
}

/**
 * The host half of one command's network: a folder of Unix sockets (the proxy, one per allowed
 * port) that Linux binds into the sandbox. It is also the seam for sockets the other way (a dev
 * server inside, reached from the host): a socket in a second folder, bound writable, that a
 * listener inside creates and the host connects to.
 */
export async function startNetworkRun(options: NetworkRunOptions): Promise<NetworkRun> {
  const socketDir = options.spare?.socketDir ?? makeSocketDir(options.baseDir)
  const withdraw = new AbortController()
  const closers: (() => Promise<void>)[] = []
  const release = async () => {
    withdraw.abort()
    for (const close of closers.splice(0)) await close().catch(() => undefined)
    rmSync(socketDir, { recursive: true, force: true })
  }
  try {
    const proxy = await startEgressProxy({
      socketPath: join(socketDir, PROXY_SOCKET_NAME),
      loopbackTcp: options.platform === 'darwin',
      decide: createEgressPolicy({ ...options.policy, signal: withdraw.signal }),
      parent: options.parent,
    })
    closers.push(proxy.close)
    // macOS has no namespace to bridge into: the profile lets the command dial these ports directly.
    if (options.platform === 'linux') {
      for (const port of options.allowedPorts) {
        const forwarder = await startPortForwarder({
          socketPath: join(socketDir, portSocketName(port)),
          port,
          refusal: options.portRefusal,
          onConnection: options.onPortConnection,
        })
        closers.push(forwarder.close)
      }
    }
    const proxyPort = proxy.tcpPort ?? SANDBOX_PROXY_PORT_INSIDE
    const egress: SandboxEgress = { socketDir, proxyPort, allowedPorts: [...options.allowedPorts] }
    if (options.spare) egress.namespacePath = options.spare.namespacePath
    return { egress, release }
  } catch (error) {
    await release()
    throw error
  }
}

export function makeSocketDir(baseDir: string): string {
  mkdirSync(baseDir, { recursive: true, mode: 0o700 })
  const preferred = mkdtempSync(join(baseDir, 'net-'))
  if (Buffer.byteLength(join(preferred, portSocketName(65_535))) < SOCKET_PATH_MAX_BYTES) return preferred
  rmSync(preferred, { recursive: true, force: true })
  return mkdtempSync(join(tmpdir(), 'sg-net-'))
}
