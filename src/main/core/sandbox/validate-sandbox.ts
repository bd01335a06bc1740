import { isAbsolute } from 'node:path'
import { InputError } from '../input-error'
import type { ExecutionSandbox } from './types'

const NETWORKS = ['on', 'off', 'allowlist']

/** A sandbox on an execution request that cannot be applied exactly as written. */
export class SandboxInputError extends InputError {
  override name = 'SandboxInputError'
}

/** A sandbox that cannot be applied exactly as written is refused before anything is spawned. */
export function assertExecutionSandbox(sandbox: ExecutionSandbox, platform: NodeJS.Platform): void {
  if (sandbox === null || typeof sandbox !== 'object')
    throw new SandboxInputError('sandbox must be an object')
  const profile = sandbox.profile as string
  if (profile === 'off') {
    throw new SandboxInputError('sandbox profile "off" is not a sandbox: leave the sandbox field out instead')
  }
  if (profile !== 'read-only' && profile !== 'workspace-write') {
    throw new SandboxInputError(
      `unknown sandbox profile ${JSON.stringify(profile)}: use "read-only" or "workspace-write"`,
    )
  }
  if (!NETWORKS.includes(sandbox.network)) {
    throw new SandboxInputError(
      `unknown sandbox network ${JSON.stringify(sandbox.network)}: use on, off or allowlist`,
    )
  }
  assertAbsolute('sandbox.workspace', sandbox.workspace)
  for (const path of sandbox.writableRoots ?? []) assertAbsolute('sandbox.writableRoots', path)
  for (const path of sandbox.protectedPaths ?? []) assertAbsolute('sandbox.protectedPaths', path)
  for (const hidden of sandbox.hidden ?? []) assertAbsolute('sandbox.hidden', hidden?.path)
  // bwrap binds it over hidden files (a device cannot be bound there, see ExecutionSandbox.emptyFile).
  if (platform === 'linux' && (sandbox.hidden ?? []).some((hidden) => hidden?.kind === 'file')) {
    assertAbsolute('sandbox.emptyFile', sandbox.emptyFile)
  }
  for (const exposed of sandbox.exposed ?? []) assertAbsolute('sandbox.exposed', exposed?.path)
  if (sandbox.profile === 'workspace-write' && sandbox.network !== 'off') assertEgress(sandbox, platform)
}

/** A command with a network reaches out only through these; one that cannot be applied as written is refused. */
function assertEgress(sandbox: ExecutionSandbox, platform: NodeJS.Platform): void {
  const egress = sandbox.egress
  if (!egress) {
    throw new SandboxInputError(`sandbox network "${sandbox.network}" needs sandbox.egress (the host proxy)`)
  }
  if (platform === 'linux') assertAbsolute('sandbox.egress.socketDir', egress.socketDir)
  for (const port of [egress.proxyPort, ...(egress.allowedPorts ?? [])]) {
    if (!Number.isInteger(port) || port < 1 || port > 65_535) {
      throw new SandboxInputError(`sandbox.egress: ports must be TCP ports, got ${String(port)}`)
    }
  }
  if ((egress.allowedPorts ?? []).includes(egress.proxyPort)) {
    throw new SandboxInputError(
      `sandbox.egress: ${egress.proxyPort} is the proxy's own port, not an allowed port`,
    )
  }
}

function assertAbsolute(field: string, path: unknown): void {
  if (typeof path !== 'string' || !isAbsolute(path) || path.includes('\0')) {
    throw new SandboxInputError(`${field}: ${JSON.stringify(path)} is not an absolute path`)
  }
}
