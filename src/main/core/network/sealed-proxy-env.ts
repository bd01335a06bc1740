import { readSealedEnv } from '../env/sanitize-entry'
import { TOOL_ENV_PASSTHROUGH_KEY } from '../env/sanitize-keys'

/** Where the environment room seals the user's own proxy and certificate variables (seed 000). */
export const SEALED_ENV_KEY = TOOL_ENV_PASSTHROUGH_KEY

/** The seed's fallback order for web-fetch kind clients: the https variables first, then http, then all. */
export const SEALED_PROXY_ORDER = [
  'https_proxy',
  'HTTPS_PROXY',
  'http_proxy',
  'HTTP_PROXY',
  'all_proxy',
  'ALL_PROXY',
] as const

const SEALED_NO_PROXY_ORDER = ['no_proxy', 'NO_PROXY'] as const

export interface SealedProxyEnv {
  /** The first non-empty sealed proxy variable in SEALED_PROXY_ORDER, by its original name. */
  proxy: { name: string; value: string } | null
  noProxy: { name: string; value: string } | null
}

/**
 * The environment room's own reader of the seal: anything but an object of strings yields nothing,
 * because a broken seal must not break the app's own requests.
 */
export function readSealedProxyEnv(env: Readonly<Record<string, string | undefined>>): SealedProxyEnv {
  const sealed = readSealedEnv(env)
  return {
    proxy: firstPresent(sealed, SEALED_PROXY_ORDER),
    noProxy: firstPresent(sealed, SEALED_NO_PROXY_ORDER),
  }
}

function firstPresent(
  sealed: Record<string, string>,
  order: readonly string[],
): { name: string; value: string } | null {
  for (const name of order) {
    const value = Object.hasOwn(sealed, name) ? sealed[name]!.trim() : ''
    if (value !== '') return { name, value }
  }
  return null
}
