import { readFileSync } from 'node:fs'
import { get } from 'node:http'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BashCall } from '../../../../src/shared/ipc/domains/bash'
import { readTaskOutput } from '../../../../src/main/core/tasks/task-output'
import { MAX_TERMINAL_TASKS_PER_SESSION } from '../../../../src/main/core/workbench/terminal-call'
import { type CoreHarness, startCore, waitFor } from './core-harness'

let harness: CoreHarness | null = null
afterEach(async () => {
  if (harness) await stopEverything(harness)
  await harness?.dispose()
  harness = null
})

/** Tasks end, their terminals close and their calls' end records are written before the folders go. */
async function stopEverything(h: CoreHarness) {
  await h.core.tasks.stopAll('user')
  const tasks = await h.core.tasks.list()
  await waitFor(
    () => tasks.every((task) => h.core.tasks.terminal(task.taskId)?.closed !== false),
    'terminals closed',
  )
  await waitFor(
    () =>
      h.core.sessions
        .get(h.sessionId)
        .history.list()
        .every((call) => !call.taskId || call.taskStatus !== null),
    'the calls end records',
  )
}

async function core() {
  harness = await startCore()
  return harness
}

/** Runs a call as an agent does, allows its card once, and hands back the card and the answer. */
async function runAllowed(h: CoreHarness, input: Record<string, unknown>) {
  const answered = h.core.bash.run(h.sessionId, input, { answerWithinMs: 20_000 })
  const card = await waitFor(() => h.core.approvals.list()[0], 'the approval card')
  await h.core.approvals.answer(card.id, { kind: 'allow_once' })
  const call: BashCall = await answered
  return { card, call, taskId: call.taskId! }
}

const auditText = (h: CoreHarness) => readFileSync(join(h.home, 'audit.jsonl'), 'utf8')

describe('terminal tasks through the Bash path (issue 23)', { timeout: 60_000 }, () => {
  it('a read -p prompt: asked first (never read-only), answered through task input, read on from the cursor', async () => {
    const h = await core()
    const { card, call, taskId } = await runAllowed(h, {
      command: 'read -r -p "Continue? [y/N] " answer; echo "answer=$answer"',
      tty: true,
    })
    expect(card.terminal?.note).toMatch(/lets the agent type into it for as long as it runs/)
    expect(card.why.nonReadOnly.map((part) => part.reason).join()).toMatch(/runs on a terminal/)
    expect(call.status).toBe('backgrounded')
    expect(call.content).toContain(`Command running on a terminal as task ${taskId}`)
    expect(call.content).toContain('Continue? [y/N]')
    expect(call.content).toMatch(/gone quiet: it may be waiting for input/)

    const typed = await h.core.terminals.input(taskId, { text: 'y\n' }, 'agent', h.sessionId)
    expect(typed.entry).toMatchObject({ by: 'agent', bytes: 2, text: 'y\n', hidden: false })
    const read = await readTaskOutput(
      h.core.tasks,
      { task_id: taskId, since: typed.outputCursor, wait_for: '^answer=.*$', timeout: 10_000 },
      { sessionId: h.sessionId },
    )
    expect(read.task.matched).toBe('answer=y')
    // The model's text has no terminal control sequences and no \r.
    expect(read.task.output).toBe('y\nanswer=y')
    expect(read.task.next_since).toBeGreaterThan(typed.outputCursor)
    const line = auditText(h)
      .trim()
      .split('\n')
      .map((row) => JSON.parse(row))
      .find((row) => row.status === 'input')
    expect(line).toMatchObject({
      taskId,
      decidedBy: 'terminal_task',
      input: { by: 'agent', bytes: 2, text: 'y\n' },
    })
  })

  it('even a read-only program asks when it runs on a terminal, and the person can refuse it', async () => {
    const h = await core()
    const check = await h.core.bash.check(h.sessionId, 'cat')
    expect(check.wouldDo).toBe('run')
    const asked = h.core.bash.run(h.sessionId, { command: 'cat', tty: true }, { answerWithinMs: 20_000 })
    const card = await waitFor(() => h.core.approvals.list()[0], 'the card for cat on a terminal')
    expect(card.terminal).toMatchObject({ interpreter: null })
    await h.core.approvals.answer(card.id, { kind: 'deny', message: 'no' })
    expect((await asked).status).toBe('denied')
  })

  it('names the interpreter on the card: python3 -i is code the agent types', async () => {
    const h = await core()
    const answered = h.core.bash.run(
      h.sessionId,
      { command: 'python3 -i -q', tty: true },
      { answerWithinMs: 20_000 },
    )
    const card = await waitFor(() => h.core.approvals.list()[0], 'the card')
    expect(card.terminal?.interpreter).toBe('python3 (an interpreter)')
    expect(card.terminal?.note).toMatch(/what it types there runs as code/)
    await h.core.approvals.answer(card.id, { kind: 'allow_once' })
    const { taskId } = await answered
    const typed = await h.core.terminals.input(taskId!, { text: 'print(6 * 7)\n' }, 'agent', h.sessionId)
    const read = await readTaskOutput(
      h.core.tasks,
      { task_id: taskId!, since: typed.outputCursor, wait_for: '^42$', timeout: 10_000 },
      { sessionId: h.sessionId },
    )
    expect(read.task.matched).toBe('42')
  })

  it.each([
    ['read -s', 'read -r -s -p "Password: " pw; echo; echo "length=$' + '{#pw}"'],
    [
      'getpass',
      `python3 -c 'import getpass; p = getpass.getpass("Password: "); print("length=%d" % len(p))'`,
    ],
  ])(
    'a %s password never reaches the audit log, the output file, the input log or an event',
    async (_name, command) => {
      const h = await core()
      const { taskId } = await runAllowed(h, { command, tty: true, wait_for: 'Password: ' })
      const secret = 'correct-horse-battery-staple'
      const typed = await h.core.terminals.input(taskId, { text: `${secret}\n` }, 'agent', h.sessionId)
      expect(typed.entry).toMatchObject({ hidden: true, text: null, bytes: secret.length + 1 })
      const read = await readTaskOutput(
        h.core.tasks,
        { task_id: taskId, timeout: 10_000 },
        { sessionId: h.sessionId },
      )
      expect(read.task.output).toContain(`length=${secret.length}`)
      await waitFor(() => auditText(h).includes('"status":"input"'), 'the input audit line')
      const task = h.core.tasks.get(taskId)!
      for (const [where, text] of [
        ['audit', auditText(h)],
        ['output file', readFileSync(task.outputPath, 'utf8')],
        ['input log', JSON.stringify(h.core.terminals.inputs(taskId))],
        ['events', JSON.stringify(h.events)],
      ]) {
        expect(text, where).not.toContain(secret)
      }
      expect(auditText(h)).toContain('"hidden":true')
    },
  )

  it(`refuses a terminal task over ${MAX_TERMINAL_TASKS_PER_SESSION} running in one session`, async () => {
    const h = await core()
    await h.core.settings.updateUser({ permissions: { mode: 'yolo' } })
    for (let i = 0; i < MAX_TERMINAL_TASKS_PER_SESSION; i += 1) {
      const call = await h.core.bash.run(h.sessionId, {
        command: 'sleep 60',
        tty: true,
        wait_for: 'x',
        timeout: 1,
      })
      expect(call.taskId).not.toBeNull()
    }
    await expect(h.core.bash.run(h.sessionId, { command: 'sleep 60', tty: true })).rejects.toThrow(
      /already has 8 terminal tasks running/,
    )
    // A piped background task is not counted.
    const piped = await h.core.bash.run(h.sessionId, { command: 'sleep 60', run_in_background: true })
    expect(piped.status).toBe('backgrounded')
  })

  it("a person's keystrokes join into one input until Enter, audited once, and a piped task refuses input", async () => {
    const h = await core()
    const { taskId } = await runAllowed(h, { command: 'read -r line; echo "got $line"', tty: true })
    for (const key of ['h', 'e', 'y', '\r'])
      await h.core.terminals.input(taskId, { text: key }, 'person', h.sessionId)
    const inputs = h.core.terminals.inputs(taskId)
    expect(inputs).toHaveLength(1)
    expect(inputs[0]).toMatchObject({ by: 'person', text: 'hey\r', bytes: 4, sealed: true })
    await waitFor(() => auditText(h).includes('"by":"person"'), 'the person input line')
    expect(auditText(h).match(/"status":"input"/g)).toHaveLength(1)

    await h.core.settings.updateUser({ permissions: { mode: 'yolo' } })
    const piped = await h.core.bash.run(h.sessionId, { command: 'sleep 30', run_in_background: true })
    await expect(h.core.terminals.input(piped.taskId!, { text: 'x' }, 'agent', h.sessionId)).rejects.toThrow(
      /has no terminal.*tty: true/,
    )
  })
})

/** A connection to the host's loopback: the body on success, the error code otherwise. */
function fetchText(port: number): Promise<string> {
  // A new connection each time (no pool): a closed forward must refuse, not answer from a kept socket.
  return new Promise((resolve) => {
    const request = get({ host: '127.0.0.1', port, path: '/', agent: false }, (response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8')
      })
      response.on('end', () => resolve(body))
      response.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`))
    })
    request.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`))
  })
}

const SERVER = `node -e "const s = require('http').createServer((q, r) => r.end('hello from the sandbox')); s.listen(0, '127.0.0.1', () => console.log('listening on', s.address().port))"`

describe('dev servers (issue 23.3)', { timeout: 60_000 }, () => {
  it('wait_for reports it ready; the host reaches it only through the port the person opens', async () => {
    const h = await core()
    // The default network ('on'): since issue 19.3 the sandbox has a namespace of its own there too.
    const { call, taskId } = await runAllowed(h, { command: SERVER, wait_for: 'listening on \\d+' })
    expect(call.content).toMatch(/Ready: the output matched "listening on \d+"/)
    const port = Number(/listening on (\d+)/.exec(call.content)?.[1])
    expect(port).toBeGreaterThan(0)

    const ready = await readTaskOutput(
      h.core.tasks,
      { task_id: taskId, wait_for: `port:${port}`, timeout: 10_000 },
      { sessionId: h.sessionId },
    )
    expect(ready.task.matched).toBe(`port:${port}`)
    // Its own network namespace: nothing listens on the host's 127.0.0.1 at that port.
    expect(await fetchText(port)).toBe('error ECONNREFUSED')
    expect(await h.core.ports.scan(taskId)).toEqual([{ port, openedAt: null }])

    const hostPort = await h.core.ports.open(taskId, port)
    expect(h.core.ports.ports(taskId)).toEqual([{ port, openedAt: hostPort }])
    expect(await fetchText(hostPort)).toBe('hello from the sandbox')

    // The sandbox still cannot reach the host, not even the forward opened for it.
    const probe = await runAllowed(h, {
      command: `node -e "require('net').connect(${hostPort}, '127.0.0.1').on('connect', () => console.log('reached the host')).on('error', (e) => console.log('refused', e.code))"`,
    })
    expect(probe.call.content).toContain('refused ECONNREFUSED')

    await h.core.ports.close(taskId, port)
    expect(await fetchText(hostPort)).toBe('error ECONNREFUSED')
    const reopened = await h.core.ports.open(taskId, port)
    await h.core.tasks.stop(taskId, 'user')
    await waitFor(
      async () => (await fetchText(reopened)).startsWith('error'),
      'the forward closed with the task',
    )
  })
})
