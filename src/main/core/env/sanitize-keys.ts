/**
 * Which inherited variables Shellgate removes at its entry, and which of those it keeps sealed
 * for its children (seed 000, 环境变量：清洗、封存与恢复). Matching is case-insensitive: `http_proxy`
 * is as much a proxy as `HTTP_PROXY`, and curl reads the lower-case form first.
 */

/** Proxy and certificate settings: the user's tools need them, the app's own HTTP must not read them. */
export const SEALED_ENV_KEYS = [
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'ALL_PROXY',
  'NO_PROXY',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  'GIT_SSL_CAINFO',
  // Nix-built tools read this instead of SSL_CERT_FILE.
  'NIX_SSL_CERT_FILE',
] as const

/**
 * Package-manager proxy and CA settings (npm_config_https_proxy, YARN_CA_FILE_PATH, pnpm_config_proxy,
 * Yarn Berry's YARN_HTTPS_CA_FILE_PATH, YARN_ENABLE_STRICT_SSL and client certificate paths…).
 */
const PACKAGE_MANAGER_NETWORK_KEY =
  /^(npm_config_|yarn_|pnpm_config_|pnpm_)(((https?|no)_?)?proxy|noproxy|ca|cafile|(https_)?ca_?file_?path|(enable_)?strict_?ssl|https_(cert|key)_?file_?path|(cert|key)file)$/i

/**
 * Removed and never given back. NODE_ENV would switch tools the agent runs into another mode;
 * ELECTRON_RUN_AS_NODE turns any Electron app a command starts into a bare Node; NODE_NO_WARNINGS
 * hides deprecations the agent should see. Telemetry variables would let a child report under our
 * identity or to our collector. BASH_ENV and ENV make every non-interactive shell source a file
 * before the command: the shell-init snapshot replaces them, and a hostile value would run code on
 * every command, read-only ones included.
 */
export const DROPPED_ENV_KEYS = [
  'NODE_ENV',
  'ELECTRON_RUN_AS_NODE',
  'NODE_NO_WARNINGS',
  'BASH_ENV',
  'ENV',
] as const

const TELEMETRY_KEY = /^(OTEL_|SHELLGATE_TELEMETRY_)/i

/**
 * Exported bash functions (`BASH_FUNC_ls%%`): bash defines them in every bash child, replacing
 * commands a verdict assumed were the real ones. Never passed to any child; the shell-init
 * snapshot brings the user's own functions from their rc files.
 */
const EXPORTED_FUNCTION_KEY = /^BASH_FUNC_/i

/** Carries the sealed values on the runtime env; only child-env assembly opens it. */
export const TOOL_ENV_PASSTHROUGH_KEY = 'SHELLGATE_TOOL_ENV_PASSTHROUGH_JSON'

const SEALED_UPPER = new Set<string>(SEALED_ENV_KEYS)
const DROPPED_UPPER = new Set<string>([...DROPPED_ENV_KEYS, TOOL_ENV_PASSTHROUGH_KEY])

export type EntryKeyFate = 'keep' | 'seal' | 'drop'

export function entryKeyFate(key: string): EntryKeyFate {
  const upper = key.toUpperCase()
  if (SEALED_UPPER.has(upper) || PACKAGE_MANAGER_NETWORK_KEY.test(key)) return 'seal'
  if (DROPPED_UPPER.has(upper) || TELEMETRY_KEY.test(key) || EXPORTED_FUNCTION_KEY.test(key)) return 'drop'
  return 'keep'
}
