/** Where the environment room seals the user's own proxy and certificate variables (seed 000). */
export const SEALED_ENV_KEY = 'SHELLGATE_TOOL_ENV_PASSTHROUGH_JSON'

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
 * Reads the sealed JSON without trusting its shape: anything but an object of strings yields
 * nothing, because a broken seal must not break the app's own requests.
 */
export function readSealedProxyEnv(env: Readonly<Record<string, string | undefined>>): SealedProxyEnv {
  const sealed = parseSealedJson(env[SEALED_ENV_KEY])
  return {
    proxy: firstPresent(sealed, SEALED_PROXY_ORDER),
    noProxy: firstPresent(sealed, SEALED_NO_PROXY_ORDER),
  }
}

function parseSealedJson(raw: string | undefined): Record<string, string> {
  if (!raw) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return {}
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {}
  const values: Record<string, string> = {}
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value === 'string') values[name] = value
  }
  return values
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
