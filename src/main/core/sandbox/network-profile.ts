import type { ExecutionSandbox, SandboxEgress, SandboxNetwork } from './types'

/** read-only commands never have a network, whatever the setting says. */
export function effectiveNetwork(sandbox: ExecutionSandbox): SandboxNetwork {
  return sandbox.profile === 'read-only' ? 'off' : sandbox.network
}

/** The egress of a command that has a network; null when it has none (read-only, or off). */
export function egressOf(sandbox: ExecutionSandbox): SandboxEgress | null {
  if (effectiveNetwork(sandbox) === 'off') return null
  if (!sandbox.egress) {
    throw new Error(`network "${sandbox.network}" needs the host proxy (sandbox.egress)`)
  }
  return sandbox.egress
}

/** The proxy's Unix socket in the run's socket folder. */
export const PROXY_SOCKET_NAME = 'proxy.sock'

/** The Unix socket, in the run's socket folder, that leads to one allowed host loopback port. */
export function portSocketName(port: number): string {
  return `port-${port}.sock`
}
