import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BashCall } from '../../../../src/shared/ipc/domains/bash'
import { CALL_HISTORY_LIMIT, openCallHistory } from '../../../../src/main/core/workbench/call-history'

let dir: string
afterEach(() => rm(dir, { recursive: true, force: true }))

function call(n: number): BashCall {
  return {
    id: `call-${n}`,
    sessionId: 's',
    command: `echo ${n}`,
    description: null,
    cwd: '/w',
    startedAt: new Date(0).toISOString(),
    status: 'completed',
    exitCode: 0,
    exitSignal: null,
    durationMs: 1,
    totalBytes: 2,
    content: String(n),
    isError: false,
    outputPath: null,
    taskId: null,
    taskStatus: null,
    decision: null,
  }
}

describe('call history', () => {
  it('survives a torn last line and keeps the earlier calls', async () => {
    dir = await mkdtemp(join(tmpdir(), 'shellgate-history-'))
    const file = join(dir, 's.calls.jsonl')
    await writeFile(file, `${JSON.stringify(call(1))}\n${JSON.stringify(call(2)).slice(0, 40)}`)
    const history = await openCallHistory(file)
    expect(history.list().map((c) => c.id)).toEqual(['call-1'])
  })

  it('compacts a file that grew past twice what it shows, keeping the newest calls', async () => {
    dir = await mkdtemp(join(tmpdir(), 'shellgate-history-'))
    const file = join(dir, 's.calls.jsonl')
    const total = 2 * CALL_HISTORY_LIMIT + 10
    await writeFile(file, Array.from({ length: total }, (_, n) => `${JSON.stringify(call(n))}\n`).join(''))
    const history = await openCallHistory(file)
    expect(history.list()).toHaveLength(CALL_HISTORY_LIMIT)
    expect(history.list().at(-1)?.id).toBe(`call-${total - 1}`)
    const lines = (await readFile(file, 'utf8')).trim().split('\n')
    expect(lines).toHaveLength(CALL_HISTORY_LIMIT)
    expect(JSON.parse(lines[0] ?? '{}').id).toBe(`call-${total - CALL_HISTORY_LIMIT}`)
  })
})
