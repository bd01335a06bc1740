import type { NetworkSettings } from '../../../shared/settings'
import { deleteEnv, type EnvRecord, readEnv, writeEnv } from './env-keys'
import { redactProxyUrl } from './redact-env'
import { readSealedEnv } from './sanitize-entry'
import { TOOL_ENV_PASSTHROUGH_KEY } from './sanitize-keys'
import { statSync } from 'node:fs'

/** Both spellings, because curl reads `http_proxy` and many tools read only the upper case. */
export const PROXY_ENV_KEYS = [
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'all_proxy',
]

/** Node, OpenSSL, Python requests, curl and git each read a different one. */
export const CA_ENV_KEYS = [
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  'GIT_SSL_CAINFO',
]

/** Users expect their local dev servers to bypass the proxy they configured. */
export const DEFAULT_NO_PROXY = 'localhost,127.0.0.1,::1'

const PROXY_SCHEMES = new Set(['http:', 'https:', 'socks:', 'socks4:', 'socks4a:', 'socks5:', 'socks5h:'])

export interface NetworkEgressOptions {
  network?: NetworkSettings
  platform: NodeJS.Platform
}

/** Bad settings never crash a spawn: the value is skipped and the reason is reported. */
export interface EnvProblem {
  code: 'invalid_proxy' | 'missing_ca_file'
  message: string
}

/** `proxy:3128` → `http://proxy:3128`; throws with a readable reason when it is not a proxy URL. */
export function normaliseProxyUrl(value: string): string {
  const trimmed = value.trim()
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    throw new Error(`"${redactProxyUrl(trimmed)}" is not a URL`)
  }
  if (!PROXY_SCHEMES.has(url.protocol)) throw new Error(`proxy scheme ${url.protocol} is not supported`)
  if (!url.hostname) throw new Error(`"${redactProxyUrl(trimmed)}" has no host`)
  return withScheme
}

/**
 * Gives children their network settings back (seed 000): the passthrough variable goes, sealed
 * values return under their original names, then settings (or SHELLGATE_* variables) override.
 * `env` is changed in place; `runtimeEnv` is where the sealed values and SHELLGATE_* live.
 */
export function applyNetworkEgressEnv(
  env: EnvRecord,
  runtimeEnv: Readonly<EnvRecord>,
  options: NetworkEgressOptions,
): EnvProblem[] {
  const { platform } = options
  const network = options.network ?? {}
  const problems: EnvProblem[] = []
  deleteEnv(env, TOOL_ENV_PASSTHROUGH_KEY, platform)
  for (const [key, value] of Object.entries(readSealedEnv(runtimeEnv))) writeEnv(env, key, value, platform)

  const proxySource = network.httpProxy?.trim() ? 'network.httpProxy' : 'SHELLGATE_HTTP_PROXY'
  const proxy = network.httpProxy?.trim() || readEnv(runtimeEnv, 'SHELLGATE_HTTP_PROXY', platform)?.trim()
  if (proxy) {
    try {
      const url = normaliseProxyUrl(proxy)
      for (const key of PROXY_ENV_KEYS) writeCaseExact(env, key, url, platform)
    } catch (error) {
      problems.push({
        code: 'invalid_proxy',
        message: `${proxySource}: ${(error as Error).message}; children keep the proxy from the environment`,
      })
    }
  }

  const noProxy = network.noProxy?.trim() || readEnv(runtimeEnv, 'SHELLGATE_NO_PROXY', platform)?.trim()
  if (noProxy) {
    writeCaseExact(env, 'NO_PROXY', noProxy, platform)
    writeCaseExact(env, 'no_proxy', noProxy, platform)
  } else if (
    hasAnyProxy(env, platform) &&
    !hasKey(env, 'NO_PROXY', platform) &&
    !hasKey(env, 'no_proxy', platform)
  ) {
    writeCaseExact(env, 'NO_PROXY', DEFAULT_NO_PROXY, platform)
    writeCaseExact(env, 'no_proxy', DEFAULT_NO_PROXY, platform)
  }

  const caSource = network.caCertFile?.trim() ? 'network.caCertFile' : 'SHELLGATE_CA_CERT'
  const caFile = network.caCertFile?.trim() || readEnv(runtimeEnv, 'SHELLGATE_CA_CERT', platform)?.trim()
  if (caFile) {
    if (isFile(caFile)) for (const key of CA_ENV_KEYS) writeEnv(env, key, caFile, platform)
    else {
      problems.push({
        code: 'missing_ca_file',
        message: `${caSource}: ${caFile} is not a readable file; children keep the certificates from the environment`,
      })
    }
  }
  return problems
}

/**
 * On Windows HTTP_PROXY and http_proxy are one variable, so writing both spellings leaves one;
 * elsewhere both are set so every tool finds its favourite.
 */
function writeCaseExact(env: EnvRecord, key: string, value: string, platform: NodeJS.Platform): void {
  if (platform === 'win32') writeEnv(env, key.toUpperCase(), value, platform)
  else env[key] = value
}

function hasKey(env: Readonly<EnvRecord>, key: string, platform: NodeJS.Platform): boolean {
  return platform === 'win32' ? readEnv(env, key, platform) !== undefined : env[key] !== undefined
}

function hasAnyProxy(env: Readonly<EnvRecord>, platform: NodeJS.Platform): boolean {
  return PROXY_ENV_KEYS.some((key) => hasKey(env, key, platform))
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}
