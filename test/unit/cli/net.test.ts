import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startForwardProxy } from '../../fixtures/network/forward-proxy'
import { startHttpServer, type TestServer } from '../../fixtures/network/http-server'
import { runCliCaptured } from './run-cli'

let home: string
let server: TestServer
let proxy: TestServer

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'shellgate-cli-net-'))
  server = await startHttpServer((request, response) => {
    if (request.url === '/moved') response.writeHead(302, { location: '/hello' }).end()
    else response.end('hello world')
  })
  proxy = await startForwardProxy()
})

afterAll(async () => {
  await Promise.all([server.close(), proxy.close()])
  rmSync(home, { recursive: true, force: true })
})

/** A fresh SHELLGATE_HOME per case, optionally with a settings.json. */
function envWith(settings: unknown, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const dir = mkdtempSync(join(home, 'home-'))
  if (settings !== undefined) writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings))
  return { SHELLGATE_HOME: dir, ...extra }
}

const secretProxy = () => proxy.origin.replace('http://', 'http://bob:hunter2@')

describe('shellgate net resolve', () => {
  it('says proxy, which rule decided and where it came from, without printing credentials', async () => {
    const env = envWith({ network: { httpProxy: secretProxy() } })
    const { code, stdout, stderr } = await runCliCaptured(
      ['net', 'resolve', 'https://example.com/', '--json'],
      { env },
    )
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toEqual({
      url: 'https://example.com/',
      route: 'proxy',
      proxy: `http://***@127.0.0.1:${proxy.port}`,
      rule: 'proxy_setting',
      source: 'network.httpProxy',
      reason: `through proxy http://***@127.0.0.1:${proxy.port} from network.httpProxy`,
    })
    const text = await runCliCaptured(['net', 'resolve', 'https://example.com/'], { env })
    expect(text.stdout).toContain('route:  proxy\n')
    expect(text.stdout).toContain('source: network.httpProxy\n')
    expect(`${stdout}${text.stdout}`).not.toContain('hunter2')
  })

  it('says direct and names the NO_PROXY entry from the environment', async () => {
    const env = envWith(undefined, { SHELLGATE_HTTP_PROXY: proxy.origin, SHELLGATE_NO_PROXY: '.corp.test' })
    const { code, stdout } = await runCliCaptured(['net', 'resolve', 'http://git.corp.test/', '--json'], {
      env,
    })
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toMatchObject({
      route: 'direct',
      rule: 'no_proxy',
      source: 'SHELLGATE_NO_PROXY',
      pattern: '.corp.test',
    })
  })

  it('shows the sealed user proxy only with --user-proxy', async () => {
    const sealed = JSON.stringify({ HTTPS_PROXY: 'http://u:p@user.proxy.test:8080' })
    const env = envWith(undefined, { SHELLGATE_TOOL_ENV_PASSTHROUGH_JSON: sealed })
    const plain = await runCliCaptured(['net', 'resolve', 'https://example.com/', '--json'], { env })
    expect(JSON.parse(plain.stdout)).toMatchObject({ route: 'direct', rule: 'no_proxy_configured' })
    const web = await runCliCaptured(['net', 'resolve', 'https://example.com/', '--json', '--user-proxy'], {
      env,
    })
    expect(JSON.parse(web.stdout)).toMatchObject({
      route: 'proxy',
      proxy: 'http://***@user.proxy.test:8080',
      source: 'HTTPS_PROXY (sealed)',
    })
  })

  it('reports a destination the public policy refuses with exit 1', async () => {
    const { code, stdout } = await runCliCaptured(
      ['net', 'resolve', 'http://2130706433/', '--public', '--json'],
      {
        env: envWith(undefined),
      },
    )
    expect(code).toBe(1)
    expect(JSON.parse(stdout)).toMatchObject({ route: 'rejected', rule: 'blocked_destination' })
  })
})

describe('shellgate net fetch', () => {
  it('fetches through the proxy from settings and reports ok, HTTP status, bytes and the trace id', async () => {
    const before = proxy.requests.length
    const env = envWith({ network: { httpProxy: secretProxy() } })
    const { code, stdout } = await runCliCaptured(['net', 'fetch', `${server.origin}/hello`, '--json'], {
      env,
    })
    expect(code).toBe(0)
    const report = JSON.parse(stdout)
    expect(report).toMatchObject({
      status: 'ok',
      httpStatus: 200,
      bytes: 'hello world'.length,
      route: { route: 'proxy', source: 'network.httpProxy' },
    })
    expect(server.requests.at(-1)?.headers['x-shellgate-trace-id']).toBe(report.traceId)
    expect(proxy.requests.length).toBe(before + 1)
    expect(stdout).not.toContain('hunter2')
  })

  it('prints a readable report without --json', async () => {
    const { code, stdout } = await runCliCaptured(['net', 'fetch', `${server.origin}/hello`], {
      env: envWith(undefined),
    })
    expect(code).toBe(0)
    expect(stdout).toMatch(/^status: ok\nhttp: {3}200\nbytes: {2}11\n/)
    expect(stdout).toContain('route:  direct (no_proxy_configured)\n')
  })

  it('does not follow redirects unless --follow', async () => {
    const env = envWith(undefined)
    const off = JSON.parse(
      (await runCliCaptured(['net', 'fetch', `${server.origin}/moved`, '--json'], { env })).stdout,
    )
    expect(off).toMatchObject({ status: 'ok', httpStatus: 302, redirects: [] })
    const on = await runCliCaptured(['net', 'fetch', `${server.origin}/moved`, '--json', '--follow'], { env })
    expect(JSON.parse(on.stdout)).toMatchObject({
      status: 'ok',
      httpStatus: 200,
      redirects: [`${server.origin}/hello`],
    })
  })

  it('reports rejected under --public, with the reason, and sends nothing', async () => {
    const before = server.requests.length
    const { code, stdout } = await runCliCaptured(
      ['net', 'fetch', `${server.origin}/hello`, '--public', '--json'],
      {
        env: envWith(undefined),
      },
    )
    expect(code).toBe(1)
    expect(JSON.parse(stdout)).toMatchObject({
      status: 'rejected',
      code: 'rejected',
      reason: 'public egress policy: 127.0.0.1 is a loopback address',
    })
    expect(server.requests.length).toBe(before)
  })

  it('reports error with the reason when nothing listens', async () => {
    const gone = await startHttpServer(() => {})
    await gone.close()
    const { code, stdout } = await runCliCaptured(['net', 'fetch', `${gone.origin}/`], {
      env: envWith(undefined),
    })
    expect(code).toBe(1)
    expect(stdout).toMatch(/^status: error\ncode: {3}network\nreason: .*ECONNREFUSED/)
  })
})

describe('shellgate net: bad input is one line on stderr, exit 2, nothing sent', () => {
  it.each([
    [['net'], 'shellgate net: expected "resolve" or "fetch", got nothing'],
    [['net', 'ping', 'http://x/'], 'shellgate net: expected "resolve" or "fetch", got "ping"'],
    [['net', 'fetch'], 'shellgate net fetch: missing <url>'],
    [['net', 'fetch', 'http://a/', 'http://b/'], 'shellgate net: unexpected argument "http://b/"'],
    [['net', 'fetch', 'http://a/', '--bogus'], '--bogus'],
    [['net', 'resolve', 'http://a/', '--follow'], '--follow only applies to fetch'],
    [['net', 'fetch', 'ftp://a/'], 'shellgate net fetch: url: unsupported scheme "ftp:"'],
    [
      ['net', 'resolve', 'http://u:p@a/'],
      'shellgate net resolve: url: credentials in the URL are not allowed',
    ],
  ])('%j', async (argv, message) => {
    const { code, stdout, stderr } = await runCliCaptured(argv, { env: envWith(undefined) })
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).toContain(message)
  })

  it.each([
    [
      {},
      { SHELLGATE_HTTP_PROXY: 'http://exa mple:1' },
      'SHELLGATE_HTTP_PROXY: "http://exa mple:1" is not a URL',
    ],
    [{ network: { caCertFile: '/nonexistent/ca.pem' } }, {}, 'network.caCertFile: cannot read the CA file'],
    [{ network: { timeoutMs: 'soon' } }, {}, 'network.timeoutMs: '],
    [{}, { SHELLGATE_HTTP_TIMEOUT: '-5' }, 'SHELLGATE_HTTP_TIMEOUT: "-5" is not a whole number'],
  ])('settings %j env %j', async (settings, extra, message) => {
    const before = server.requests.length
    const env = envWith(settings, extra)
    const { code, stdout, stderr } = await runCliCaptured(['net', 'fetch', `${server.origin}/hello`], { env })
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toContain(`shellgate net fetch: ${message}`)
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(server.requests.length).toBe(before)
  })

  it('names a settings.json that is not JSON', async () => {
    const env = envWith(undefined)
    writeFileSync(join(env.SHELLGATE_HOME!, 'settings.json'), '{ not json')
    const { code, stderr } = await runCliCaptured(['net', 'resolve', 'http://a/'], { env })
    expect(code).toBe(2)
    expect(stderr).toMatch(/settings\.json: is not valid JSON/)
  })
})
