import type { NetworkSettings } from '../../../shared/settings'
import { NetworkConfigError } from './network-error'
import { type NoProxyPattern, parseNoProxyList } from './no-proxy'
import { parseProxyUrl } from './proxy-url'
import { readSealedProxyEnv, type SealedProxyEnv } from './sealed-proxy-env'

/** Seed 000: network.timeout defaults to 180000 ms. */
export const DEFAULT_HTTP_TIMEOUT_MS = 180_000
/** The same ceiling the settings schema puts on network.timeoutMs. */
export const MAX_HTTP_TIMEOUT_MS = 3_600_000

/** A value and the setting or variable it came from, so every decision can say why. */
export interface Sourced<T> {
  value: T
  source: string
}

export interface NetworkConfig {
  /** Full proxy URL, credentials included: redact before showing it anywhere. */
  proxy: Sourced<string> | null
  noProxy: Sourced<NoProxyPattern[]> | null
  caCertFile: Sourced<string> | null
  timeoutMs: Sourced<number>
  /** The user's own shell proxies, used only by clients that opt into the fallback. */
  sealed: SealedProxyEnv
}

export interface NetworkConfigInput {
  settings?: { network?: NetworkSettings } | undefined
  env: Readonly<Record<string, string | undefined>>
}

/**
 * Settings first, then SHELLGATE_* variables (seed 000 table). Throws NetworkConfigError naming the
 * setting when a value is unusable, so no request is ever built from a half-valid config.
 */
export function resolveNetworkConfig({ settings, env }: NetworkConfigInput): NetworkConfig {
  const network = settings?.network ?? {}
  const proxy = pick([
    ['network.httpProxy', network.httpProxy],
    ['SHELLGATE_HTTP_PROXY', env.SHELLGATE_HTTP_PROXY],
  ])
  const noProxy = pick([
    ['network.noProxy', network.noProxy],
    ['SHELLGATE_NO_PROXY', env.SHELLGATE_NO_PROXY],
  ])
  const caCertFile = pick([
    ['network.caCertFile', network.caCertFile],
    ['SHELLGATE_CA_CERT', env.SHELLGATE_CA_CERT],
    // The seed's name for the same variable (ZCODE_AGENT_CA_CERT), accepted so either spelling works.
    ['SHELLGATE_AGENT_CA_CERT', env.SHELLGATE_AGENT_CA_CERT],
  ])
  return {
    proxy: proxy && { value: parseProxyUrl(proxy.value, proxy.source), source: proxy.source },
    noProxy: noProxy && { value: parseNoProxyList(noProxy.value, noProxy.source), source: noProxy.source },
    caCertFile,
    timeoutMs: resolveTimeout(network.timeoutMs, env),
    sealed: readSealedProxyEnv(env),
  }
}

function pick(candidates: [string, string | undefined][]): Sourced<string> | null {
  for (const [source, raw] of candidates) {
    const value = raw?.trim()
    if (value) return { value, source }
  }
  return null
}

function resolveTimeout(
  fromSettings: number | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Sourced<number> {
  if (fromSettings !== undefined)
    return { value: checkTimeout(fromSettings, 'network.timeoutMs'), source: 'network.timeoutMs' }
  const fromEnv = pick([
    ['SHELLGATE_HTTP_TIMEOUT', env.SHELLGATE_HTTP_TIMEOUT],
    ['SHELLGATE_TIMEOUT', env.SHELLGATE_TIMEOUT],
  ])
  if (!fromEnv) return { value: DEFAULT_HTTP_TIMEOUT_MS, source: 'default' }
  if (!/^\d+$/.test(fromEnv.value)) {
    throw new NetworkConfigError(fromEnv.source, `"${fromEnv.value}" is not a whole number of milliseconds`)
  }
  return { value: checkTimeout(Number(fromEnv.value), fromEnv.source), source: fromEnv.source }
}

function checkTimeout(ms: number, source: string): number {
  if (!Number.isSafeInteger(ms) || ms < 1 || ms > MAX_HTTP_TIMEOUT_MS) {
    throw new NetworkConfigError(
      source,
      `the timeout must be between 1 and ${MAX_HTTP_TIMEOUT_MS} ms, got ${ms}`,
    )
  }
  return ms
}
