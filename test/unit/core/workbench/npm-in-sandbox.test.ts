import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startHttpsServer, type TestServer } from '../../../fixtures/network/http-server'
import { type ChildTcpServer, startChildTcpServer } from '../../../fixtures/network/tcp-child-server'
import { generateTestCertificates } from '../../../fixtures/network/tls-cert'
import { type ShellgateServers, startShellgateServers } from '../sandbox/shellgate-servers'
import { waitFor } from './core-harness'

/**
 * Issue 19's Done-when: `npm install` and `npm test` work inside the sandbox, with the registry
 * domain allowed. The registry is a real HTTPS server on 127.0.0.1 with a certificate for
 * registry.npmjs.org (from a CA made for the test), reached through the proxy, whose resolver alone
 * maps that name to 127.0.0.1; `npm test` reaches a local database-like service on an allowed port.
 */
let servers: ShellgateServers | undefined
let registry: TestServer | undefined
let database: ChildTcpServer | undefined
const cleanups: (() => void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup()
  await servers?.close()
  await registry?.close()
  await database?.close()
  servers = registry = database = undefined
})

const resolver = async (hostname: string) =>
  hostname === 'registry.npmjs.org' ? [{ address: '127.0.0.1', family: 4 as const }] : []

/** A one-file package as npm publishes it: package/package.json and package/index.js in a gzipped tar. */
function packTarball(dir: string): Buffer {
  mkdirSync(join(dir, 'package'), { recursive: true })
  writeFileSync(
    join(dir, 'package', 'package.json'),
    JSON.stringify({ name: 'sg-greeting', version: '1.0.0', main: 'index.js' }),
  )
  writeFileSync(
    join(dir, 'package', 'index.js'),
    "module.exports = (name) => 'hello ' + name + ' from the registry'\n",
  )
  execFileSync('tar', ['-czf', join(dir, 'sg-greeting-1.0.0.tgz'), '-C', dir, 'package'])
  return readFileSync(join(dir, 'sg-greeting-1.0.0.tgz'))
}

describe('npm inside the sandbox (real bwrap, real npm, network allowlist)', () => {
  it('npm install from the allowed registry, then npm test reaching an allowed local port', async () => {
    const scratch = realpathSync(mkdtempSync('/var/tmp/shellgate-npm-'))
    cleanups.push(() => rmSync(scratch, { recursive: true, force: true }))
    const certs = generateTestCertificates(scratch, ['registry.npmjs.org'])
    const tarball = packTarball(join(scratch, 'pack'))
    const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`
    let registryOrigin = ''
    registry = await startHttpsServer(certs, (request, response) => {
      if (request.url === '/sg-greeting') {
        response.setHeader('content-type', 'application/json')
        response.end(
          JSON.stringify({
            name: 'sg-greeting',
            'dist-tags': { latest: '1.0.0' },
            versions: {
              '1.0.0': {
                name: 'sg-greeting',
                version: '1.0.0',
                main: 'index.js',
                dist: { tarball: `${registryOrigin}/sg-greeting/-/sg-greeting-1.0.0.tgz`, integrity },
              },
            },
          }),
        )
      } else if (request.url === '/sg-greeting/-/sg-greeting-1.0.0.tgz') {
        response.setHeader('content-type', 'application/octet-stream')
        response.end(tarball)
      } else response.writeHead(404).end('{}')
    })
    registryOrigin = `https://registry.npmjs.org:${registry.port}`
    // Only the registry's test port may stand in for a public host (the test admission), and only
    // through the proxy: every other loopback destination is still refused.
    servers = await startShellgateServers({ resolver, admitLoopbackPorts: [registry.port] })
    const s = servers
    await s.host.core.settings.updateUser({
      sandbox: { network: 'allowlist', allowlist: ['registry.npmjs.org'] },
    })
    database = await startChildTcpServer()
    await s.host.core.networkRules.setWorkspace(s.workspace, {
      allowedPorts: [database.port],
      allowlist: [],
      denylist: [],
    })
    const ws = s.workspace
    writeFileSync(join(ws, 'registry-ca.txt'), readFileSync(certs.caFile))
    writeFileSync(
      join(ws, 'package.json'),
      JSON.stringify({
        name: 'sandboxed-app',
        version: '1.0.0',
        private: true,
        dependencies: { 'sg-greeting': '1.0.0' },
        scripts: { test: 'node db-test.js' },
      }),
    )
    writeFileSync(
      join(ws, 'db-test.js'),
      `const net = require('node:net')
const greet = require('sg-greeting')
const socket = net.connect(${database.port}, '127.0.0.1', () => {
  const body = Buffer.from('select 1')
  const frame = Buffer.alloc(4)
  frame.writeUInt32BE(body.length)
  socket.write(Buffer.concat([frame, body]))
})
let data = Buffer.alloc(0)
socket.on('data', (chunk) => { data = Buffer.concat([data, chunk]) })
socket.on('end', () => {
  const answer = data.subarray(4).toString()
  if (answer !== 'pong:1 tceles') { console.error('unexpected answer', answer); process.exit(1) }
  console.log(greet('test'), '| database says', answer)
})
socket.on('error', (error) => { console.error('database unreachable:', error.message); process.exit(1) })
`,
    )
    const { core } = s.host
    const sessionId = core.sessions.list()[0]!.id
    const npmEnv =
      'npm_config_cafile="$PWD/registry-ca.txt" npm_config_cache="$PWD/.npm-cache" npm_config_update_notifier=false'
    const command = `${npmEnv} npm install --registry=${registryOrigin}/ --no-audit --no-fund && ${npmEnv} npm test --silent`
    const running = core.bash.run(sessionId, { command, timeout: 120_000 })
    const card = await waitFor(() => core.approvals.list()[0], 'the approval card')
    expect(card.network).toBeUndefined()
    await core.approvals.answer(card.id, { kind: 'allow_once' })
    const call = await running
    expect(core.approvals.list()).toEqual([])
    expect(call).toMatchObject({ status: 'completed', sandbox: 'workspace-write', exitCode: 0 })
    expect(call.content).toContain('added 1 package')
    expect(call.content).toContain('hello test from the registry | database says pong:1 tceles')
    expect(readFileSync(join(ws, 'node_modules', 'sg-greeting', 'index.js'), 'utf8')).toContain(
      'from the registry',
    )
    expect(registry.requests.map((request) => request.url)).toEqual([
      '/sg-greeting',
      '/sg-greeting/-/sg-greeting-1.0.0.tgz',
    ])
    const lines = readFileSync(join(s.home, 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(
      lines
        .filter((line) => line.status === 'network')
        .map((line) => [line.network.host, line.decidedBy, line.rule]),
    ).toEqual([
      ['registry.npmjs.org', 'rule', 'registry.npmjs.org'],
      ['127.0.0.1', 'rule', `port ${database.port}`],
    ])
  }, 180_000)
})
