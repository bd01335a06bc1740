/**
 * The variables tools read for a proxy, all naming Shellgate's sandbox proxy. curl, git (libcurl),
 * Python (requests, urllib, pip), Go, Cargo, Deno and Bun read the standard names in one case or
 * the other; npm, pnpm and yarn 1 read npm_config_*; pip also PIP_PROXY; yarn 2+ YARN_HTTP(S)_PROXY.
 * A tool that reads none of them (Node's own fetch, Java, ssh) finds no route out, and the blocked
 * line says so. (env/network-egress-env.ts has the six standard names for the person's own proxy;
 * the sandbox room keeps its own list so that it imports no room above it.)
 */
const PROXY_VARIABLES = [
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'all_proxy',
  'npm_config_proxy',
  'npm_config_https_proxy',
  'PIP_PROXY',
  'YARN_HTTP_PROXY',
  'YARN_HTTPS_PROXY',
]
/** Loopback goes straight to the command's own loopback, where the allowed ports listen. */
const DIRECT_VARIABLES = ['NO_PROXY', 'no_proxy', 'npm_config_noproxy']
export const DIRECT_HOSTS = 'localhost,127.0.0.1,::1'

export function proxyEnvironment(proxyPort: number): Array<[name: string, value: string]> {
  const url = `http://127.0.0.1:${proxyPort}`
  return [
    ...PROXY_VARIABLES.map((name): [string, string] => [name, url]),
    ...DIRECT_VARIABLES.map((name): [string, string] => [name, DIRECT_HOSTS]),
  ]
}
