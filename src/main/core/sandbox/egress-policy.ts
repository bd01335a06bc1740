import { isIP } from 'node:net'
import { isDomainPattern } from '../../../shared/settings'
import { type HostResolver, systemResolver } from '../network/host-resolver'
import { vetPublicDestination } from '../network/public-egress-policy'
import { matchesDomainPattern, normaliseHost } from './domain-pattern'
import type { EgressRequest, EgressVerdict } from './egress-proxy'

/** Where a network rule lives: the same scopes as command rules, except the repository's own file. */
export type NetworkRuleScope = 'session' | 'local' | 'user'

export interface NetworkRule {
  pattern: string
  scope: NetworkRuleScope
  /** The file it is saved in, or `session:<id>`. */
  source: string
}

export interface NetworkRuleSet {
  allow: NetworkRule[]
  deny: NetworkRule[]
}

/** What the person answered about one destination, or why nobody did. */
export type NetworkAnswer =
  | {
      allowed: true
      decidedBy: 'user_once' | 'user_always' | 'rule'
      approvedBy: string
      rule: NetworkRule | null
    }
  | {
      allowed: false
      decidedBy: 'user_deny' | 'approval_timeout' | 'cancelled' | 'session_closed'
      approvedBy: string | null
      message: string
    }

/** Asks the person about a destination; `signal` aborts when the command ends (the card is withdrawn). */
export type NetworkAsker = (request: EgressRequest, signal: AbortSignal) => Promise<NetworkAnswer>

/** How a connection was decided, in the audit log's words; network_policy is the network setting itself. */
export type EgressDecidedBy = 'network_policy' | 'deny_rule' | NetworkAnswer['decidedBy']

/** One decision of the proxy, logged for every request whatever the outcome. */
export interface EgressDecision {
  at: string
  method: string
  host: string
  port: number
  allowed: boolean
  reason: string
  decidedBy: EgressDecidedBy
  rule: string | null
  ruleFile: string | null
  approvedBy: string | null
}

export interface EgressPolicyOptions {
  network: 'on' | 'allowlist'
  /** Read at every request, so a rule saved meanwhile (on another card) applies to the next connection. */
  rules: () => NetworkRuleSet
  resolver?: HostResolver
  /**
   * Tests only, never from settings.json: loopback ports the public-egress policy lets through,
   * so a 127.0.0.1 test server can stand in for a public host.
   */
  admitLoopbackPorts?: number[]
  /** Absent where no one can answer (a headless exec without a hub): an unlisted domain is refused. */
  ask?: NetworkAsker
  /** Aborted when the run ends; a card still waiting is withdrawn. */
  signal: AbortSignal
  onDecision(decision: EgressDecision): void
}

type Outcome = Omit<EgressDecision, 'at' | 'method' | 'host' | 'port'> & { address?: string }

/**
 * One command's egress policy, in this order: a name or an address at all; the deny rules; the
 * public egress policy (every resolved address public, the connection pinned to it), so nobody is
 * asked about a destination that could never be reached; then the network setting: `on` admits,
 * `allowlist` admits a listed domain and asks about any other, once per host and port per run
 * (a retry joins the card already shown, and the answer holds for the rest of the run).
 */
export function createEgressPolicy(
  options: EgressPolicyOptions,
): (request: EgressRequest) => Promise<EgressVerdict> {
  const answers = new Map<string, Promise<NetworkAnswer>>()
  const resolver = options.resolver ?? systemResolver

  const vet = async (host: string, port: number): Promise<{ address: string } | { reason: string }> => {
    try {
      if (options.admitLoopbackPorts?.includes(port) && isIP(host) === 0) {
        const found = await resolver(host)
        if (found.length > 0 && found.every((answer) => answer.address === '127.0.0.1')) {
          return { address: '127.0.0.1' }
        }
      }
      const url = new URL(`http://${isIP(host) === 6 ? `[${host}]` : host}:${port}/`)
      const verdict = await vetPublicDestination(url, resolver)
      return verdict.allowed ? { address: verdict.destination.address } : { reason: verdict.reason }
    } catch (error) {
      return { reason: `${host} could not be resolved: ${(error as Error).message}` }
    }
  }

  const ask = (request: EgressRequest & { host: string }): Promise<NetworkAnswer> => {
    const key = `${request.host}:${request.port}`
    let answer = answers.get(key)
    if (!answer) {
      answer = options.ask!(request, options.signal).catch(
        (error: unknown): NetworkAnswer => ({
          allowed: false,
          decidedBy: 'cancelled',
          approvedBy: null,
          message: `the question could not be asked: ${(error as Error).message}`,
        }),
      )
      answers.set(key, answer)
    }
    return answer
  }

  const decide = async (request: EgressRequest, host: string): Promise<Outcome> => {
    const none = { rule: null, ruleFile: null, approvedBy: null }
    const literal = isIP(host) !== 0
    if (!literal && (!isDomainPattern(host) || host.startsWith('*.'))) {
      return { ...none, allowed: false, decidedBy: 'network_policy', reason: `"${host}" is not a host name` }
    }
    const denied = literal
      ? undefined
      : options.rules().deny.find((rule) => matchesDomainPattern(host, rule.pattern))
    if (denied) {
      return {
        ...none,
        allowed: false,
        decidedBy: 'deny_rule',
        rule: denied.pattern,
        ruleFile: denied.source,
        reason: `${host} is on the network deny list (${denied.pattern})`,
      }
    }
    const vetted = await vet(host, request.port)
    if ('reason' in vetted)
      return { ...none, allowed: false, decidedBy: 'network_policy', reason: vetted.reason }
    const admit = { ...none, allowed: true, address: vetted.address }
    if (options.network === 'on') {
      return {
        ...admit,
        decidedBy: 'network_policy',
        reason: 'the sandbox network is on (any public destination)',
      }
    }
    if (literal) {
      return {
        ...none,
        allowed: false,
        decidedBy: 'network_policy',
        reason: `${host} is an address; the network allowlist admits names only`,
      }
    }
    const listed = options.rules().allow.find((rule) => matchesDomainPattern(host, rule.pattern))
    if (listed) {
      return {
        ...admit,
        decidedBy: 'rule',
        rule: listed.pattern,
        ruleFile: listed.source,
        reason: `on the network allowlist (${listed.pattern})`,
      }
    }
    if (!options.ask) {
      return {
        ...none,
        allowed: false,
        decidedBy: 'network_policy',
        reason: `${host} is not on the network allowlist, and no one can be asked here (Shellgate is not running)`,
      }
    }
    const answer = await ask({ ...request, host })
    if (!answer.allowed) {
      const { decidedBy, approvedBy, message } = answer
      return { ...none, allowed: false, decidedBy, approvedBy, reason: message }
    }
    return {
      ...admit,
      decidedBy: answer.decidedBy,
      approvedBy: answer.approvedBy,
      rule: answer.rule?.pattern ?? null,
      ruleFile: answer.rule?.source ?? null,
      reason:
        answer.decidedBy === 'user_once'
          ? `allowed once, for this command (${host}:${request.port})`
          : `allowed by the rule ${answer.rule?.pattern ?? host}`,
    }
  }

  return async (request) => {
    const host = normaliseHost(request.host)
    const { address, allowed, reason, decidedBy, rule, ruleFile, approvedBy } = await decide(request, host)
    const at = new Date().toISOString()
    const { method, port } = request
    options.onDecision({ at, method, host, port, allowed, reason, decidedBy, rule, ruleFile, approvedBy })
    return allowed && address ? { allowed: true, address } : { allowed: false, reason }
  }
}
