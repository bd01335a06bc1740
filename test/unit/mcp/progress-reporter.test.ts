import { describe, expect, it } from 'vitest'
import { createDispatcher } from '../../../src/main/ipc/dispatcher'
import { createEventHub } from '../../../src/main/ipc/event-hub'
import { connectLoopback } from '../../../src/main/transports/loopback'
import {
  describeProgress,
  PROGRESS_MIN_INTERVAL_MS,
  reportCallProgress,
} from '../../../src/main/mcp/progress-reporter'
import { createClient } from '../../../src/shared/ipc/client'
import { contract } from '../../../src/shared/ipc/contract'

describe('MCP progress from bash.progress events', () => {
  it('sends only this call’s progress, strictly increasing, at most one per interval', () => {
    const hub = createEventHub(contract)
    const client = createClient(
      contract,
      connectLoopback(createDispatcher(contract, {} as never), hub).transport,
    )
    let now = 0
    const sent: { progress: number; message: string }[] = []
    const stop = reportCallProgress(
      client,
      'call-1',
      (update) => sent.push(update),
      () => now,
    )
    const progress = (callId: string, elapsedMs: number, tail: string) =>
      hub.emit('bash.progress', {
        callId,
        sessionId: 's',
        elapsedMs,
        totalBytes: elapsedMs,
        lastOutputAgeMs: 0,
        tail,
      })
    progress('call-1', 2_000, 'first\n')
    now += 10
    progress('call-1', 2_010, 'too soon\n') // inside the interval: dropped
    progress('other-call', 2_020, 'not ours\n')
    now += PROGRESS_MIN_INTERVAL_MS
    progress('call-1', 1_500, 'clock went back\n') // still strictly larger than the last one sent
    now += PROGRESS_MIN_INTERVAL_MS
    progress('call-1', 4_000, '\u001b[32mgreen\u001b[0m\n\n')
    stop()
    now += PROGRESS_MIN_INTERVAL_MS
    progress('call-1', 9_000, 'after stop\n')
    expect(sent).toEqual([
      { progress: 2_000, message: 'running 2s, 2000 bytes of output: first' },
      { progress: 2_001, message: 'running 1s, 1500 bytes of output: clock went back' },
      { progress: 4_000, message: 'running 4s, 4000 bytes of output: green' },
    ])
  })

  it('clips a long last line and says nothing about an empty tail', () => {
    expect(describeProgress(3_500, 0, '')).toBe('running 3s, 0 bytes of output')
    expect(describeProgress(1_000, 10, `${'x'.repeat(300)}\n`)).toBe(
      `running 1s, 10 bytes of output: ${'x'.repeat(200)}…`,
    )
  })
})
