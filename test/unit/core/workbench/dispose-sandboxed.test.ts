import { readdirSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { type CoreHarness, startCore, waitFor } from './core-harness'

let harness: CoreHarness | undefined
afterEach(async () => {
  await harness?.dispose()
  harness = undefined
})

/** Every live process whose command line holds the marker: bwrap's argv, the shell's and the sleep's. */
function processesWith(marker: string): { pid: number; cmdline: string }[] {
  const found: { pid: number; cmdline: string }[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ')
      if (cmdline.includes(marker)) found.push({ pid: Number(name), cmdline })
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found
}

describe('disposing the core ends every command it started (issue 24.1)', () => {
  it('a sandboxed foreground call in flight leaves no bwrap, shell or sleep behind', async () => {
    harness = await startCore()
    const backend = await harness.core.sandbox.backend()
    expect(backend.available, backend.message).toBe(true)
    // A unique duration, so only this test's processes carry it.
    const marker = `100.${process.pid}${Date.now() % 1000}`
    const call = harness.core.bash.run(harness.sessionId, { command: `sleep ${marker}` })
    const running = await waitFor(() => {
      const seen = processesWith(marker)
      return seen.some((each) => each.cmdline.startsWith('sleep ')) && seen
    }, 'the sandboxed sleep')
    expect(running.some((each) => each.cmdline.includes('bwrap'))).toBe(true)
    await harness.core.bash.dispose()
    const ended = await call
    expect(ended.status).toBe('cancelled')
    expect(processesWith(marker)).toEqual([])
  })

  it.each([
    ['ignores TERM', (m: string) => `trap '' TERM; sleep ${m}`],
    ['runs in the background inside', (m: string) => `sleep ${m} & wait`],
    ['leaves the session', (m: string) => `setsid sleep ${m}; sleep ${m}`],
    ['is approved (workspace-write)', (m: string) => `touch x; sleep ${m}`],
  ])('a sandboxed command that %s leaves nothing behind', async (_what, command) => {
    harness = await startCore()
    const marker = `100.${process.pid}${Date.now() % 1000}`
    const call = harness.core.bash.run(harness.sessionId, { command: command(marker) })
    const sleeping = () => processesWith(marker).some((p) => p.cmdline.startsWith('sleep'))
    const first = await waitFor(() => {
      const approval = harness!.core.approvals.list()[0]
      if (approval) return { approval }
      return sleeping() && { approval: null }
    }, 'the sleep or its approval')
    if (first.approval) {
      await harness.core.approvals.answer(first.approval.id, { kind: 'allow_once' })
      await waitFor(sleeping, 'the sleep')
    }
    await harness.core.bash.dispose()
    // At once: the trees are gone when dispose returns, not some time after (file mode answers at
    // the kill request and kills behind it).
    expect(processesWith(marker)).toEqual([])
    await call.catch(() => undefined)
  })

  it('unsandboxed, a tree that ignores TERM is gone (KILLed after the grace) when dispose returns', async () => {
    harness = await startCore()
    await harness.core.settings.updateUser({ sandbox: { mode: 'off' }, permissions: { mode: 'yolo' } })
    const marker = `100.${process.pid}${Date.now() % 1000}`
    const call = harness.core.bash.run(harness.sessionId, { command: `trap '' TERM; sleep ${marker}; true` })
    await waitFor(() => processesWith(marker).some((each) => each.cmdline.startsWith('sleep ')), 'the sleep')
    await harness.core.bash.dispose()
    expect(processesWith(marker)).toEqual([])
    expect((await call).status).toBe('cancelled')
  })

  it.each([0, 1, 5, 20, 50, 100])('dispose %i ms after the call starts: nothing is left', async (delayMs) => {
    harness = await startCore()
    const marker = `100.${process.pid}${delayMs}`
    const call = harness.core.bash.run(harness.sessionId, { command: `sleep ${marker}` })
    await new Promise((resolve) => setTimeout(resolve, delayMs))
    await harness.core.bash.dispose()
    // The call has ended once it settles: nothing of it can start after that.
    await call.catch(() => undefined)
    expect(processesWith(marker)).toEqual([])
  })
})
