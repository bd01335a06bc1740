import {
  type ConnectionReport,
  describeUrlRoute,
  NetworkConfigError,
  readNetworkSettings,
  resolveNetworkConfig,
  testConnection,
  type UrlRoute,
} from '../../core/network'
import { resolveShellgateHome } from '../../core/paths'
import { parseCommandArgs } from '../args'
import type { CliCommand, CliIo } from '../command'
import { UsageError } from '../usage-error'

const USAGE = [
  'Usage: shellgate net resolve <url> [--json] [--public] [--user-proxy]',
  '       shellgate net fetch <url> [--json] [--public] [--follow] [--user-proxy]',
  '',
  '  resolve       where a request to <url> would go (proxy or direct) and which rule decided',
  '  fetch         one GET through the app HTTP client; status ok | rejected | error',
  '  --public      apply the public egress policy (DNS-vetted public addresses only, never a proxy)',
  '  --follow      follow redirects, re-checking every hop (off by default)',
  '  --user-proxy  fall back to your own shell proxies, as web-fetch clients do',
  '  --json        print one JSON object',
  '',
  'Settings: network.* in $SHELLGATE_HOME/settings.json, then SHELLGATE_HTTP_PROXY, SHELLGATE_NO_PROXY,',
  'SHELLGATE_CA_CERT and SHELLGATE_HTTP_TIMEOUT. Proxy credentials are never printed.',
].join('\n')

export const netCommand: CliCommand = {
  usage: USAGE,
  async run(argv, io) {
    const { flags, positionals, rest } = parseCommandArgs('net', argv, {
      json: { type: 'boolean' },
      public: { type: 'boolean' },
      follow: { type: 'boolean' },
      'user-proxy': { type: 'boolean' },
    })
    const [action, url, extra] = positionals
    if (rest !== null || extra !== undefined) {
      throw new UsageError(`shellgate net: unexpected argument "${extra ?? '--'}"`)
    }
    if (action !== 'resolve' && action !== 'fetch') {
      throw new UsageError(
        `shellgate net: expected "resolve" or "fetch", got ${action ? `"${action}"` : 'nothing'}`,
      )
    }
    if (url === undefined) throw new UsageError(`shellgate net ${action}: missing <url>`)
    const options = {
      json: flags.json === true,
      egressPolicy: flags.public ? ('public' as const) : ('default' as const),
      sealedFallback: flags['user-proxy'] === true,
    }
    const settings = {
      network: await asUsageError(action, () => readNetworkSettings(resolveShellgateHome(io.env))),
    }
    if (action === 'resolve') {
      if (flags.follow) throw new UsageError('shellgate net resolve: --follow only applies to fetch')
      const route = describeUrlRoute({ url, settings, env: io.env, ...options })
      if (route.rule === 'invalid_url' || route.rule === 'invalid_config') {
        throw new UsageError(`shellgate net resolve: ${route.reason}`)
      }
      print(io, options.json, { url, ...route }, routeLines(route))
      return route.route === 'rejected' ? 1 : 0
    }
    const report = await asUsageError(action, async () =>
      testConnection({
        url,
        config: resolveNetworkConfig({ settings, env: io.env }),
        followRedirects: flags.follow === true,
        signal: io.signal,
        ...options,
      }),
    )
    print(io, options.json, report, reportLines(report))
    return report.status === 'ok' ? 0 : 1
  },
}

/** Settings and URL problems are bad input: one line, exit 2, nothing sent. */
async function asUsageError<T>(action: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof NetworkConfigError) throw new UsageError(`shellgate net ${action}: ${error.message}`)
    throw error
  }
}

function print(
  io: CliIo,
  json: boolean,
  value: object,
  lines: [string, string | number | undefined][],
): void {
  if (json) {
    io.stdout(`${JSON.stringify(value)}\n`)
    return
  }
  const shown = lines.filter((line): line is [string, string | number] => line[1] !== undefined)
  const width = Math.max(...shown.map(([label]) => label.length)) + 1
  io.stdout(shown.map(([label, text]) => `${`${label}:`.padEnd(width)} ${text}\n`).join(''))
}

function routeLines(route: UrlRoute): [string, string | undefined][] {
  return [
    ['route', route.route],
    ['proxy', route.proxy ?? undefined],
    ['rule', route.rule],
    ['source', route.source ?? undefined],
    ['reason', route.reason],
  ]
}

function reportLines(report: ConnectionReport): [string, string | number | undefined][] {
  if (report.status !== 'ok') {
    return [
      ['status', report.status],
      ['code', report.code],
      ['reason', report.reason],
      ['trace', report.traceId ?? undefined],
    ]
  }
  return [
    ['status', report.status],
    ['http', report.httpStatus],
    ['bytes', report.bytes],
    ['url', report.url],
    [
      'route',
      `${report.route.route}${report.route.proxy ? ` ${report.route.proxy}` : ''} (${report.route.rule})`,
    ],
    ['trace', report.traceId],
  ]
}
