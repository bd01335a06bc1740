import { describe, expect, it } from 'vitest'
import { type ClientTransport, createClient } from '../../../src/shared/ipc/client'
import { RpcError } from '../../../src/shared/ipc/errors'
import type { EventHub } from '../../../src/main/ipc/event-hub'
import { type TestHandlerProbe, testContract } from './test-contract'

export interface ConformanceHarness {
  hub: EventHub<typeof testContract>
  probe: TestHandlerProbe
  connect(): Promise<{ transport: ClientTransport; disconnect(): void }>
  dispose(): Promise<void>
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (condition()) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** One suite, every transport: the same envelope semantics whatever carries them. */
export function describeConformance(name: string, makeHarness: () => Promise<ConformanceHarness>): void {
  describe(`transport conformance: ${name}`, () => {
    const withClient = async (
      body: (
        client: ReturnType<typeof createClient<typeof testContract>>,
        harness: ConformanceHarness,
      ) => Promise<void>,
    ) => {
      const harness = await makeHarness()
      const connection = await harness.connect()
      try {
        await body(createClient(testContract, connection.transport), harness)
      } finally {
        connection.disconnect()
        await harness.dispose()
      }
    }

    it('round-trips a request', () =>
      withClient(async (client) => {
        await expect(client.request('test.echo', { text: 'héllo ✓' })).resolves.toEqual({ text: 'héllo ✓' })
      }))

    it('rejects invalid input with invalid_input before the handler runs', () =>
      withClient(async (client, harness) => {
        const error = await client.request('test.echo', { text: 42 } as never).catch((e: unknown) => e)
        expect(error).toBeInstanceOf(RpcError)
        expect((error as RpcError).code).toBe('invalid_input')
        expect((error as RpcError).message).toContain('text')
        const extra = await client
          .request('test.echo', { text: 'a', extra: true } as never)
          .catch((e: unknown) => e)
        expect((extra as RpcError).code).toBe('invalid_input')
        expect(harness.probe.calls).toEqual([])
      }))

    it('rejects an unknown method, including prototype names', () =>
      withClient(async (client) => {
        for (const method of ['test.nope', 'constructor', '__proto__', 'toString']) {
          const error = await client.request(method as never, {} as never).catch((e: unknown) => e)
          expect((error as RpcError).code).toBe('unknown_method')
        }
      }))

    it('carries handler errors as codes and hides internals', () =>
      withClient(async (client) => {
        await expect(client.request('test.deny', {})).rejects.toMatchObject({
          code: 'denied',
          message: 'not for you',
        })
        const crash = (await client.request('test.crash', {}).catch((e: unknown) => e)) as RpcError
        expect(crash.code).toBe('internal')
        expect(crash.message).toContain('disk on fire')
        expect(crash.message).not.toContain('at ')
        await expect(client.request('test.badOutput', {})).rejects.toMatchObject({ code: 'internal' })
      }))

    it('delivers events to every connected client', () =>
      withClient(async (client, harness) => {
        const second = await harness.connect()
        const secondClient = createClient(testContract, second.transport)
        const seen: number[] = []
        const seenBySecond: number[] = []
        client.on('test.tick', ({ n }) => seen.push(n))
        secondClient.on('test.tick', ({ n }) => seenBySecond.push(n))
        // A round trip first guarantees both subscriptions are live on the server side.
        await client.request('test.echo', { text: 'sync' })
        await secondClient.request('test.echo', { text: 'sync' })
        harness.hub.emit('test.tick', { n: 1 })
        harness.hub.emit('test.tick', { n: 2 })
        await until(() => seen.length === 2 && seenBySecond.length === 2, 'events')
        expect(seen).toEqual([1, 2])
        expect(seenBySecond).toEqual([1, 2])
        expect(() => harness.hub.emit('test.tick', { n: 'x' } as never)).toThrow()
        second.disconnect()
      }))

    it('answers 100 concurrent requests, each with its own result', () =>
      withClient(async (client) => {
        const texts = Array.from({ length: 100 }, (_, i) => `request-${i}`)
        const results = await Promise.all(
          texts.map((text, i) => client.request('test.echo', { text, delayMs: (i * 7) % 23 })),
        )
        expect(results.map((r) => r.text)).toEqual(texts)
      }))

    it('aborts the handler of a client that disconnects mid-request', async () => {
      const harness = await makeHarness()
      const connection = await harness.connect()
      const client = createClient(testContract, connection.transport)
      const outcome = client.request('test.waitForAbort', { key: 'k1' }).catch((e: unknown) => e)
      await until(() => harness.probe.waiting.has('k1'), 'the handler to start')
      connection.disconnect()
      await until(() => harness.probe.aborted.has('k1'), 'the handler to see the abort')
      expect(await outcome).toBeInstanceOf(RpcError)
      await harness.dispose()
    })
  })
}
