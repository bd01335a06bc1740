import { z } from 'zod'
import { defineContract } from '../../../src/shared/ipc/define'
import { RpcError } from '../../../src/shared/ipc/errors'
import type { Handlers } from '../../../src/main/ipc/dispatcher'

/** A contract made for the conformance suite: each method exercises one path of the dispatcher. */
export const testContract = defineContract({
  requests: {
    'test.echo': {
      role: 'agent',
      input: z
        .object({ text: z.string().max(2_000_000), delayMs: z.number().int().min(0).optional() })
        .strict(),
      output: z.object({ text: z.string() }),
    },
    'test.waitForAbort': {
      role: 'agent',
      input: z.object({ key: z.string() }).strict(),
      output: z.object({}),
    },
    'test.deny': { role: 'ui', input: z.object({}).strict(), output: z.object({}) },
    'test.crash': { role: 'ui', input: z.object({}).strict(), output: z.object({}) },
    'test.badOutput': { role: 'ui', input: z.object({}).strict(), output: z.object({ n: z.number() }) },
  },
  events: {
    'test.tick': { payload: z.object({ n: z.number() }) },
  },
})

export interface TestHandlerProbe {
  calls: string[]
  aborted: Set<string>
  waiting: Map<string, () => void>
}

export function createTestHandlers(probe: TestHandlerProbe): Handlers<typeof testContract> {
  return {
    'test.echo': async ({ text, delayMs }) => {
      probe.calls.push('test.echo')
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs))
      return { text }
    },
    'test.waitForAbort': ({ key }, context) => {
      probe.calls.push('test.waitForAbort')
      return new Promise((_resolve, reject) => {
        probe.waiting.set(key, () => undefined)
        context.signal.addEventListener('abort', () => {
          probe.aborted.add(key)
          reject(new RpcError('cancelled', 'caller left'))
        })
      })
    },
    'test.deny': () => {
      throw new RpcError('denied', 'not for you')
    },
    'test.crash': () => {
      throw new Error('disk on fire')
    },
    'test.badOutput': () => ({ n: 'not a number' }) as unknown as { n: number },
  }
}
