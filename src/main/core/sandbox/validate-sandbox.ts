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
  // Every list is required: a missing one must never fall back to mounting more (reads are denied by default).
  for (const readable of list(sandbox, 'readable')) {
    assertAbsolute('sandbox.readable', readable?.path)
    if (readable?.source !== undefined) assertAbsolute('sandbox.readable', readable.source)
  }
  for (const link of list(sandbox, 'symlinks')) {
    assertAbsolute('sandbox.symlinks', link?.path)
    if (typeof link?.target !== 'string' || link.target === '' || link.target.includes('\0')) {
      throw new SandboxInputError(`sandbox.symlinks: ${JSON.stringify(link?.target)} is not a link target`)
    }
  }
  for (const path of list(sandbox, 'emptyDirs')) assertAbsolute('sandbox.emptyDirs', path)
  for (const path of list(sandbox, 'writableRoots')) assertAbsolute('sandbox.writableRoots', path)
  for (const cache of list(sandbox, 'privateCaches')) {
    assertAbsolute('sandbox.privateCaches', cache?.path)
    assertAbsolute('sandbox.privateCaches', cache?.source)
  }
  // Seatbelt confines paths but cannot bind one folder at another's place.
  if (platform !== 'linux' && sandbox.privateCaches.length > 0) {
    throw new SandboxInputError(`sandbox.privateCaches: ${platform} cannot mount a folder at another place`)
  }
  for (const path of list(sandbox, 'protectedPaths')) assertAbsolute('sandbox.protectedPaths', path)
  for (const path of list(sandbox, 'reopenedPaths')) assertAbsolute('sandbox.reopenedPaths', path)
  for (const hidden of list(sandbox, 'hidden')) assertAbsolute('sandbox.hidden', hidden?.path)
  // bwrap binds it over hidden files (a device cannot be bound there, see ExecutionSandbox.emptyFile).
  if (
    platform === 'linux' &&
    sandbox.hidden.some((hidden) => hidden?.kind === 'file' && !hidden.readsEmpty)
  ) {
    assertAbsolute('sandbox.emptyFile', sandbox.emptyFile)
  }
  if (platform === 'linux' && sandbox.hidden.some((hidden) => hidden?.kind === 'file' && hidden.readsEmpty)) {
    assertAbsolute('sandbox.blankFile', sandbox.blankFile)
  }
  for (const exposed of list(sandbox, 'exposed')) assertAbsolute('sandbox.exposed', exposed?.path)
  for (const path of list(sandbox, 'allowedSockets')) assertAbsolute('sandbox.allowedSockets', path)
  for (const [path, fd] of Object.entries(sandbox.pinnedSources ?? {})) {
    assertAbsolute('sandbox.pinnedSources', path)
    if (!Number.isInteger(fd) || fd < 0)
      throw new SandboxInputError(`sandbox.pinnedSources: ${JSON.stringify(fd)} is not a file descriptor`)
  }
  if (platform !== 'linux' && Object.keys(sandbox.pinnedSources ?? {}).length > 0)
    throw new SandboxInputError(`sandbox.pinnedSources: ${platform} does not mount by descriptor`)
  if (sandbox.profile === 'workspace-write' && sandbox.network !== 'off') assertEgress(sandbox, platform)
}

/** The only form a spare namespace comes in (spare-network.linux.ts): a descriptor this process holds. */
const heldDescriptor = (path: string) => new RegExp(`^/proc/${process.pid}/fd/\\d+$`).test(path)

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
  if (egress.namespacePath !== undefined && (platform !== 'linux' || !heldDescriptor(egress.namespacePath))) {
    throw new SandboxInputError(
      `sandbox.egress.namespacePath must be a namespace this process holds (/proc/${process.pid}/fd/<n>) on Linux, got ${String(egress.namespacePath)}`,
    )
  }
  if ((egress.allowedPorts ?? []).includes(egress.proxyPort)) {
    throw new SandboxInputError(
      `sandbox.egress: ${egress.proxyPort} is the proxy's own port, not an allowed port`,
    )
  }
}

type ListField = {
  [K in keyof ExecutionSandbox]-?: NonNullable<ExecutionSandbox[K]> extends readonly unknown[] ? K : never
}[keyof ExecutionSandbox]

function list<K extends ListField>(sandbox: ExecutionSandbox, field: K): ExecutionSandbox[K] {
  const value = sandbox[field]
  if (!Array.isArray(value)) throw new SandboxInputError(`sandbox.${field} must be a list`)
  return value
}

function assertAbsolute(field: string, path: unknown): void {
  if (typeof path !== 'string' || !isAbsolute(path) || path.includes('\0')) {
    throw new SandboxInputError(`${field}: ${JSON.stringify(path)} is not an absolute path`)
  }
}
