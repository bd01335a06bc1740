import { NetworkConfigError } from './network-error'

const REQUEST_SCHEMES = new Set(['http:', 'https:'])

/**
 * The URL of one request (or one redirect hop). Credentials in a URL are refused rather than sent:
 * they would end up in logs, traces and proxies, and a redirect can plant them.
 */
export function parseRequestUrl(raw: string | URL, setting = 'url'): URL {
  let url: URL
  try {
    url = new URL(String(raw))
  } catch {
    throw new NetworkConfigError(setting, `"${String(raw)}" is not an absolute URL`)
  }
  if (!REQUEST_SCHEMES.has(url.protocol)) {
    throw new NetworkConfigError(setting, `unsupported scheme "${url.protocol}" (only http: and https:)`)
  }
  if (url.username !== '' || url.password !== '') {
    throw new NetworkConfigError(
      setting,
      'credentials in the URL are not allowed; send them in a header instead',
    )
  }
  return url
}
