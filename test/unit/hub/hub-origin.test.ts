import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { type InProcessHub, startInProcessHub } from './hub-harness'

let hub: InProcessHub | undefined
afterEach(async () => {
  await hub?.close()
  hub = undefined
})

/** One raw upgrade on the hub socket: 'open' with the answer to hub.hello, or the HTTP status it got. */
function upgrade(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; hello?: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://shellgate-hub${path}`, {
      createConnection: () => connect(hub!.running.endpoint.path),
      headers,
      perMessageDeflate: false,
    })
    socket.once('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode ?? 0 })
      socket.terminate()
    })
    socket.once('error', reject)
    socket.once('open', () => {
      socket.send(JSON.stringify({ kind: 'request', id: 1, method: 'hub.hello', params: {} }))
      socket.once('message', (data) => {
        resolve({ status: 101, hello: JSON.parse(String(data)) })
        socket.close()
      })
    })
  })
}

describe('the hub socket takes no upgrade a browser made (issue 24.2)', () => {
  it('refuses an upgrade that carries an Origin, whatever the origin; answers one without', async () => {
    hub = await startInProcessHub()
    const plain = await upgrade('/rpc', {})
    expect(plain.status).toBe(101)
    expect(JSON.stringify(plain.hello)).toContain(hub.running.info.hubId)
    for (const origin of ['http://127.0.0.1:1', 'null', 'file://', 'http://shellgate-hub', '']) {
      expect(await upgrade('/rpc', { Origin: origin }), origin).toEqual({ status: 403 })
    }
    expect(await upgrade('/other', {})).toEqual({ status: 403 })
  })
})
