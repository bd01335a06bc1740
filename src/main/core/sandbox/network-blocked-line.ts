import type { EgressDecision } from './egress-policy'
import { effectiveNetwork } from './network-profile'
import { FORWARD_METHOD } from './prepare-network'
import type { ExecutionSandbox } from './types'

const UNSANDBOXED = 'or approve the command unsandboxed'
/** What a tool prints when it tried the network itself instead of through the proxy. */
const DIRECT_ATTEMPT =
  /Network is unreachable|ENETUNREACH|Could not resolve host|Temporary failure in name resolution|getaddrinfo (?:EAI_AGAIN|ENOTFOUND)|Name or service not known|EAI_AGAIN|ENOTFOUND/
/** A connection refused on a loopback port: inside, only the proxy and the allowed ports listen. */
const LOOPBACK_REFUSED =
  /ECONNREFUSED (?:127\.0\.0\.1|::1|\[::1\]|localhost):(\d+)|(?:127\.0\.0\.1|localhost|::1)\]?\)?,? ?(?:port |:)(\d+)[^\n]*?(?:[Rr]efused|Couldn't connect)/
const PROXY_403 =
  /Received HTTP code 403 from proxy|CONNECT tunnel failed, response 403|blocked by the Shellgate sandbox proxy/

export interface NetworkBlockedInput {
  sandbox: ExecutionSandbox
  output: string
  /** What the proxy and the port forwarders refused during the run. */
  refused: EgressDecision[]
}

/** The network half of the blocked line: what was refused, why, and the way on; null when the network did not stop it. */
export function networkBlockedLine({ sandbox, output, refused }: NetworkBlockedInput): string | null {
  const network = effectiveNetwork(sandbox)
  const forwarded = refused.find((decision) => decision.method === FORWARD_METHOD)
  if (forwarded) return `blocked by the sandbox: ${forwarded.reason}. To go further, ${UNSANDBOXED}.`
  const first = refused[0]
  if (first) {
    const others = new Set(refused.map((decision) => `${decision.host}:${decision.port}`))
    others.delete(`${first.host}:${first.port}`)
    const also = others.size > 0 ? ` (also refused: ${[...others].slice(0, 3).join(', ')})` : ''
    return `blocked by the sandbox: the network proxy refused ${first.host}:${first.port}: ${first.reason}${also}. To go further, ${wayOn(first)}.`
  }
  if (PROXY_403.test(output)) {
    return `blocked by the sandbox: the network proxy refused a destination. To go further, add the domain to Settings → Sandbox → allowlist, ${UNSANDBOXED}.`
  }
  if (network === 'off') {
    if (!DIRECT_ATTEMPT.test(output) && !LOOPBACK_REFUSED.test(output)) return null
    const why =
      sandbox.profile === 'read-only'
        ? 'it ran without asking, in the read-only profile'
        : 'Settings → Sandbox → network is off'
    return `blocked by the sandbox: the network is off for this command (${why}). To go further, approve the command unsandboxed, or set the sandbox network to on or allowlist.`
  }
  const loopback = LOOPBACK_REFUSED.exec(output)
  if (loopback) {
    const port = loopback[1] ?? loopback[2]
    return `blocked by the sandbox: the host's 127.0.0.1:${port} is not reachable from sandboxed commands; only the ports allowed for this workspace are. To go further, allow the port in Settings → Sandbox → Allowed ports (this workspace), ${UNSANDBOXED}.`
  }
  if (DIRECT_ATTEMPT.test(output)) {
    return `blocked by the sandbox: this command tried to reach the network directly, but a sandboxed command reaches it only through Shellgate's proxy (HTTPS_PROXY=http://127.0.0.1:${sandbox.egress?.proxyPort ?? 3128}), which this tool did not use. To go further, set the tool's proxy to that address, ${UNSANDBOXED}.`
  }
  return null
}

function wayOn(decision: EgressDecision): string {
  switch (decision.decidedBy) {
    case 'deny_rule':
      return `remove ${decision.rule} from the network deny list (Settings → Sandbox), ${UNSANDBOXED}`
    case 'user_deny':
    case 'approval_timeout':
    case 'cancelled':
    case 'session_closed':
      return `run the command again and allow the domain on its card, add it to Settings → Sandbox → allowlist, ${UNSANDBOXED}`
    default:
      if (/not on the network allowlist|admits names only/.test(decision.reason)) {
        return `add the domain to Settings → Sandbox → allowlist, ${UNSANDBOXED}`
      }
      if (/loopback|private|link-local|unique-local|names this machine|\.local/.test(decision.reason)) {
        return `allow a service on this machine by its port in Settings → Sandbox → Allowed ports (this workspace); the proxy never reaches loopback or private addresses. Or approve the command unsandboxed`
      }
      return `approve the command unsandboxed`
  }
}
