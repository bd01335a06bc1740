import { mkdtempSync, rmSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpClient } from '../../../../src/main/core/network/http-client'
import { resolveNetworkConfig } from '../../../../src/main/core/network/network-config'
import { MAX_RESPONSE_BODY_BYTES } from '../../../../src/main/core/network/response-body'
import {
  startHttpServer,
  startHttpsServer,
  type Handler,
  type TestServer,
} from '../../../fixtures/network/http-server'
import { generateTestCertificates } from '../../../fixtures/network/tls-cert'

const CHUNK = Buffer.alloc(64 * 1024, 0x61)

/** Writes `total` bytes in 64 KiB chunks (chunked encoding, no content-length), honouring backpressure. */
function streamChunked(response: ServerResponse, total: number): void {
  let sent = 0
  const pump = () => {
    while (sent < total) {
      sent += CHUNK.length
      if (!response.write(CHUNK)) {
        response.once('drain', pump)
        return
      }
    }
    response.end()
  }
  response.on('error', () => {})
  pump()
}

const routes: Record<string, Handler> = {
  '/declared-too-big': (_request, response) => {
    response.writeHead(200, { 'content-length': String(MAX_RESPONSE_BODY_BYTES + 1) })
    response.write('only a little')
    // Never finishes: the client must refuse on the header alone.
  },
  '/chunked-too-big': (_request, response) => streamChunked(response, MAX_RESPONSE_BODY_BYTES + CHUNK.length),
  '/chunked-at-cap': (_request, response) => streamChunked(response, MAX_RESPONSE_BODY_BYTES),
  '/never': () => {},
  '/stall-body': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' })
    response.write('first bytes')
  },
}
const handler: Handler = (request, response) => routes[request.url ?? '']?.(request, response)

let dir: string
let plain: TestServer
let secure: TestServer
let caFile: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shellgate-net-limits-'))
  const certs = generateTestCertificates(dir)
  caFile = certs.caFile
  plain = await startHttpServer(handler)
  secure = await startHttpsServer(certs, handler)
})

afterAll(async () => {
  await Promise.all([plain.close(), secure.close()])
  rmSync(dir, { recursive: true, force: true })
})

// Both transports enforce the limits: the global fetch (no proxy, no CA) and node https (custom CA).
const transports = [
  ['global fetch', () => plain.origin, () => resolveNetworkConfig({ env: {} })],
  ['node https', () => secure.origin, () => resolveNetworkConfig({ env: { SHELLGATE_CA_CERT: caFile } })],
] as const

describe.each(transports)('limits over %s', (_name, originOf, configOf) => {
  it('caps the body at 10 MiB by content-length before reading it', async () => {
    const client = createHttpClient({ config: configOf() })
    await expect(client.request({ url: `${originOf()}/declared-too-big` })).rejects.toMatchObject({
      code: 'body_too_large',
      message: expect.stringContaining(`declares ${MAX_RESPONSE_BODY_BYTES + 1} bytes`),
    })
  })

  it('caps a chunked body while streaming, and accepts exactly 10 MiB', async () => {
    const client = createHttpClient({ config: configOf() })
    await expect(client.request({ url: `${originOf()}/chunked-too-big` })).rejects.toMatchObject({
      code: 'body_too_large',
      message: expect.stringContaining('exceeded the 10485760-byte limit'),
    })
    const atCap = await client.request({ url: `${originOf()}/chunked-at-cap` })
    expect(atCap.body.byteLength).toBe(MAX_RESPONSE_BODY_BYTES)
  })

  it('honours a smaller per-request cap', async () => {
    const client = createHttpClient({ config: configOf() })
    await expect(
      client.request({ url: `${originOf()}/chunked-at-cap`, maxBodyBytes: 1000 }),
    ).rejects.toMatchObject({
      code: 'body_too_large',
    })
  })

  it('times out a server that never answers, using the configured timeout', async () => {
    const config = { ...configOf(), timeoutMs: { value: 300, source: 'SHELLGATE_HTTP_TIMEOUT' } }
    const client = createHttpClient({ config })
    await expect(client.request({ url: `${originOf()}/never` })).rejects.toMatchObject({
      code: 'timeout',
      message: 'timed out after 300 ms',
    })
  })

  it('times out while the body is still streaming', async () => {
    const client = createHttpClient({ config: configOf() })
    await expect(client.request({ url: `${originOf()}/stall-body`, timeoutMs: 300 })).rejects.toMatchObject({
      code: 'timeout',
    })
  })

  it('reports a caller abort as aborted, not as a timeout', async () => {
    const client = createHttpClient({ config: configOf() })
    const controller = new AbortController()
    const pending = client.request({ url: `${originOf()}/never`, signal: controller.signal })
    setTimeout(() => controller.abort(), 50)
    await expect(pending).rejects.toMatchObject({ code: 'aborted' })
  })
})

it('reports a refused connection as a network error with the cause', async () => {
  const closed = await startHttpServer(() => {})
  const url = `${closed.origin}/`
  await closed.close()
  const client = createHttpClient({ config: resolveNetworkConfig({ env: {} }) })
  await expect(client.request({ url })).rejects.toMatchObject({
    code: 'network',
    message: expect.stringContaining('ECONNREFUSED'),
  })
})
