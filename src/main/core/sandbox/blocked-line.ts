import { relative } from 'node:path'
import type { ExecutionSandbox } from './types'

export interface BlockedLineInput {
  sandbox: ExecutionSandbox
  /** The tail of what the command printed (stdout and stderr together). */
  output: string
  exitCode: number | null
  /** Hosts the allowlist proxy refused during this run. */
  refusedHosts: string[]
  home: string
}

const READ_ONLY_FS = /(?:['‘`"]?)(\/[^\s'’`":]*)(?:['’`"]?)?[^\n]*?:\s*Read-only file system/
const NO_NETWORK =
  /Network is unreachable|ENETUNREACH|Could not resolve host|Temporary failure in name resolution|getaddrinfo (?:EAI_AGAIN|ENOTFOUND)|Name or service not known/
/** A read-only verdict never shows a card, so the way on is a rule that makes the person decide. */
const READ_ONLY_FURTHER =
  'To go further, the person can add an ask rule for it (Settings → Permissions) and approve it, in its sandbox or unsandboxed.'
const PROXY_403 =
  /Received HTTP code 403 from proxy|CONNECT tunnel failed, response 403|blocked by the Shellgate sandbox proxy/

/**
 * One plain line for a command that failed because of the sandbox, saying what was blocked and how
 * to go further; null when the failure does not look like the sandbox's doing. Read from the
 * output text and the profile, since a process reports EROFS or ENETUNREACH only as text.
 */
export function sandboxBlockedLine(input: BlockedLineInput): string | null {
  if (input.exitCode === 0) return null
  const { sandbox, output } = input
  if (input.refusedHosts.length > 0 || PROXY_403.test(output)) {
    const hosts = input.refusedHosts.length > 0 ? ` (${[...new Set(input.refusedHosts)].join(', ')})` : ''
    return `blocked by the sandbox: the network allowlist refused this host${hosts}. To go further, add the domain to Settings → Sandbox → allowlist, or approve the command unsandboxed.`
  }
  const written = READ_ONLY_FS.exec(output)
  if (written) return writeLine(sandbox, written[1]!, input.home)
  const network = sandbox.profile === 'read-only' ? 'off' : sandbox.network
  if (network === 'off' && NO_NETWORK.test(output)) {
    const why =
      sandbox.profile === 'read-only'
        ? 'it ran without asking, in the read-only profile'
        : 'Settings → Sandbox → network is off'
    return `blocked by the sandbox: the network is off for this command (${why}). To go further, approve the command unsandboxed, or set the sandbox network to on or allowlist.`
  }
  const hidden = sandbox.hidden.find(
    (entry) => output.includes(entry.path) || output.includes(tilde(entry.path, input.home)),
  )
  if (hidden && /No such file or directory|Permission denied|Read-only file system/.test(output)) {
    return `blocked by the sandbox: ${tilde(hidden.path, input.home)} is hidden from sandboxed commands. To go further, approve the command unsandboxed.`
  }
  return null
}

function writeLine(sandbox: ExecutionSandbox, path: string, home: string): string {
  const shown = tilde(path, home)
  const further = 'To go further, approve the command unsandboxed.'
  if (sandbox.hidden.some((entry) => inside(path, entry.path))) {
    return `blocked by the sandbox: ${shown} is hidden from sandboxed commands. ${further}`
  }
  if (sandbox.profile === 'read-only') {
    return `blocked by the sandbox: this command ran without asking, in the read-only profile, so it cannot write (${shown}). ${READ_ONLY_FURTHER}`
  }
  if (sandbox.protectedPaths.some((entry) => inside(path, entry))) {
    return `blocked by the sandbox: ${shown} stays read-only even inside the workspace. ${further}`
  }
  return `blocked by the sandbox: write outside the workspace (${shown}). ${further}`
}

function inside(path: string, root: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith('/'))
}

function tilde(path: string, home: string): string {
  return inside(path, home) && path !== home ? `~/${relative(home, path)}` : path
}
