import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '../core/workbench/core-harness'
import { startTestHub, type TestHub } from '../mcp/test-hub'
import { runCliCaptured } from './run-cli'

let hub: TestHub | null = null
afterEach(async () => {
  await hub?.dispose()
  hub = null
})

async function auditLines(home: string): Promise<Record<string, unknown>[]> {
  return (await readFile(join(home, 'audit.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
}

describe('shellgate exec asks the person in the running Shellgate', () => {
  it('waits, says where to approve, runs once the person allows it, and audits it as theirs', async () => {
    hub = await startTestHub()
    const running = runCliCaptured(['exec', '--json', '--', 'touch approved-in-ui && echo ok'], {
      env: hub.env,
      cwd: hub.workspace,
    })
    const card = await waitFor(() => hub?.host.core.approvals.list()[0], 'the card in the hub')
    expect(card).toMatchObject({ command: 'touch approved-in-ui && echo ok', cwd: hub.workspace })
    await hub.ui.request('approvals.answer', { id: card.id, answer: { kind: 'allow_once' } })
    const { code, stdout, stderr } = await running
    expect(code).toBe(0)
    expect(stderr).toContain('shellgate exec: waiting for your approval in Shellgate')
    expect(JSON.parse(stdout)).toMatchObject({ status: 'completed', stdout: 'ok\n', via: 'hub' })
    expect(existsSync(join(hub.workspace, 'approved-in-ui'))).toBe(true)
    const lines = await auditLines(hub.home)
    // One line, written by the hub: the person's answer, naming who asked.
    expect(lines.map((line) => [line.decidedBy, line.approvedBy, line.status, line.agent ?? null])).toEqual([
      ['allowed_once', 'user', 'completed', 'shellgate exec 0.1.0'],
    ])
  })

  it('a denial in the UI is not run, exits 126 and prints the person’s message', async () => {
    hub = await startTestHub()
    const running = runCliCaptured(['exec', '--', 'touch denied-in-ui'], { env: hub.env, cwd: hub.workspace })
    const card = await waitFor(() => hub?.host.core.approvals.list()[0], 'the card in the hub')
    await hub.ui.request('approvals.answer', {
      id: card.id,
      answer: { kind: 'deny', message: 'not this one' },
    })
    const { code, stderr } = await running
    expect(code).toBe(126)
    expect(stderr).toContain('not this one')
    expect(existsSync(join(hub.workspace, 'denied-in-ui'))).toBe(false)
  })

  it('Ctrl+C hangs up: the card is withdrawn and nothing runs', async () => {
    hub = await startTestHub()
    const controller = new AbortController()
    const running = runCliCaptured(['exec', '--', 'touch withdrawn'], {
      env: hub.env,
      cwd: hub.workspace,
      signal: controller.signal,
    })
    await waitFor(() => hub?.host.core.approvals.list()[0], 'the card in the hub')
    controller.abort(new Error('SIGINT'))
    expect((await running).code).toBe(126)
    await waitFor(() => hub?.host.core.approvals.list().length === 0, 'the card to be withdrawn')
    expect(existsSync(join(hub.workspace, 'withdrawn'))).toBe(false)
  })
})
