import { afterEach, describe, expect, it } from 'vitest'
import type WebSocket from 'ws'
import { LOGOUT_CLOSE_CODE, RPC_CLOSE_CODES } from '../../../src/shared/browser-login'
import { logIn, openSocket, type RunningTestServer, startTestServer } from '../transports/harness'

let running: RunningTestServer | undefined
const sockets: WebSocket[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate()
  await running?.dispose()
  running = undefined
})

/** Opens a socket with the key: 'open' once a request was answered, else the close code it got. */
function connectWith(key: string): Promise<{ outcome: 'open'; socket: WebSocket } | { outcome: number }> {
  const socket = openSocket(running!.server, { key })
  sockets.push(socket)
  return new Promise((resolve) => {
    socket.on('open', () =>
      socket.send(JSON.stringify({ kind: 'request', id: 'p', method: 'test.echo', params: { text: 'x' } })),
    )
    socket.once('message', () => resolve({ outcome: 'open', socket }))
    socket.on('close', (code) => resolve({ outcome: code }))
    socket.on('error', () => undefined)
  })
}

function closed(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => socket.once('close', (code) => resolve(code)))
}

describe('a browser-mode login is one page, for a while (issue 19.4)', () => {
  it('a copy of the key is refused while the page is connected, and after the page logs out', async () => {
    running = await startTestServer()
    const key = await logIn(running.server)
    const page = await connectWith(key)
    expect(page.outcome).toBe('open')
    // Someone who read the key off the disk (Chromium keeps sessionStorage there) gets nothing.
    expect(await connectWith(key)).toEqual({ outcome: RPC_CLOSE_CODES.key_in_use })
    if (page.outcome !== 'open') return
    const gone = closed(page.socket)
    page.socket.close(LOGOUT_CLOSE_CODE, 'logout')
    await gone
    expect(await connectWith(key)).toEqual({ outcome: RPC_CLOSE_CODES.key_expired })
  })

  it('a reload reconnects; a key away from its page past the idle time is refused as expired', async () => {
    let now = 0
    running = await startTestServer({ now: () => now, sessionIdleMs: 30_000 })
    const key = await logIn(running.server)
    const page = await connectWith(key)
    if (page.outcome !== 'open') throw new Error('the page was refused')
    const gone = closed(page.socket)
    page.socket.close()
    await gone
    now += 29_000
    const reloaded = await connectWith(key)
    expect(reloaded.outcome).toBe('open')
    if (reloaded.outcome !== 'open') return
    const goneAgain = closed(reloaded.socket)
    reloaded.socket.close()
    await goneAgain
    now += 30_000
    expect(await connectWith(key)).toEqual({ outcome: RPC_CLOSE_CODES.key_expired })
  })

  it('the absolute lifetime closes the open page with key_expired, and the key opens nothing after', async () => {
    running = await startTestServer({ sessionAbsoluteMs: 300 })
    const key = await logIn(running.server)
    const page = await connectWith(key)
    if (page.outcome !== 'open') throw new Error('the page was refused')
    expect(await closed(page.socket)).toBe(RPC_CLOSE_CODES.key_expired)
    expect(await connectWith(key)).toEqual({ outcome: RPC_CLOSE_CODES.key_expired })
  })
})
