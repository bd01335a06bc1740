import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import { parseLsofListening, parseListenRows } from '../../../../src/main/core/tasks/listening-ports'
import { runWithBackgroundLifecycle } from '../../../../src/main/core/tasks/background-lifecycle'
import { createTaskRegistry } from '../../../../src/main/core/tasks/task-registry'
import { createTerminalTasks } from '../../../../src/main/core/tasks/terminal-tasks'
import { renderTerminalText } from '../../../../src/main/core/tasks/terminal-text'
import { parseWaitFor } from '../../../../src/main/core/tasks/wait-condition'
import { tempDirsRemovedAfterEach } from '../exec/temp-dir'

const tempDir = tempDirsRemovedAfterEach()
const PATH_ONLY = { PATH: process.env.PATH ?? '/usr/bin:/bin' }

describe('what the model reads of a terminal (issue 23.1)', () => {
  it.each([
    ['colours and titles go', '\u001b[1;32mgreen\u001b[0m ok\u001b]0;title\u0007!', 'green ok!'],
    ['CRLF is a newline', 'one\r\ntwo\r\n', 'one\ntwo'],
    ['a redrawn progress line keeps its last frame', '10%\r50%\r100%\r\ndone', '100%\ndone'],
    ['backspace and erase-to-end edit the line', 'abc\b\u001b[Kd\r\n', 'abd'],
    [
      'bracketed paste markers vanish, the prompt keeps its space',
      '>>> \u001b[?2004hprint(1)\r\n1\r\n>>> ',
      '>>> print(1)\n1\n>>> ',
    ],
    ['cursor forward leaves spaces', 'x\u001b[5Cy', 'x     y'],
    ['a cut escape at the end is dropped', 'ok\u001b[3', 'ok'],
  ])('%s', (_name, raw, text) => {
    expect(renderTerminalText(raw)).toBe(text)
  })
})

describe('wait_for', () => {
  it('runs in linear time: a pattern that backtracks exponentially elsewhere answers at once on 200 KB', () => {
    const condition = parseWaitFor('(a+)+$')
    if (condition.kind !== 'pattern') throw new Error('expected a pattern')
    const started = performance.now()
    expect(condition.find(`${'a'.repeat(200_000)}b`)).toBeNull()
    // Not a timing assertion on the machine's speed: a backtracking engine would not finish at all.
    expect(performance.now() - started).toBeLessThan(60_000)
  })

  it('matches per line, and refuses what RE2 cannot run and bad ports with a reason', () => {
    const prompt = parseWaitFor('^>>> $')
    expect(prompt.kind === 'pattern' && prompt.find('x\n>>> ')).toBe('>>> ')
    expect(parseWaitFor('port:5173')).toEqual({ kind: 'port', port: 5173 })
    expect(() => parseWaitFor('port:0')).toThrow(/from 1 to 65535/)
    expect(() => parseWaitFor('port:70000')).toThrow(/from 1 to 65535/)
    expect(() => parseWaitFor('port:abc')).toThrow(/port:5173/)
    expect(() => parseWaitFor('(?<=a)b')).toThrow(/RE2 syntax/)
    expect(() => parseWaitFor('(a)\\1')).toThrow(/RE2 syntax/)
    expect(() => parseWaitFor('x'.repeat(1_001))).toThrow(/over 1000/)
    expect(() => parseWaitFor('')).toThrow(/empty/)
  })
})

describe('listening sockets', () => {
  it('reads LISTEN rows of /proc/net/tcp and lsof -F output', () => {
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:1435 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0000',
      '   1: 0100007F:9C40 0100007F:1435 01 00000000:00000000 00:00000000 00000000     0        0 4343 1 0000',
    ].join('\n')
    expect(parseListenRows(table)).toEqual([{ port: 5173, inode: '4242' }])
    expect(parseLsofListening('p812\nf23\nn127.0.0.1:5173\np900\nn*:8080\n')).toEqual([
      { port: 5173, pid: 812, namespace: null },
      { port: 8080, pid: 900, namespace: null },
    ])
  })
})

describe('terminal tasks: the idle limit (issue 23.4)', () => {
  it('stops a terminal task that neither printed nor was typed into for the limit, as "idle"', async () => {
    const dir = tempDir()
    const registry = createTaskRegistry()
    const terminals = createTerminalTasks({ registry, idleLimitMs: () => 1_500 })
    const outcome = await runWithBackgroundLifecycle(
      createExecutionPort(),
      registry,
      {
        command: { mode: 'shell', command: 'echo hi; sleep 60', shellProfile: 'posix-bash' },
        cwd: dir,
        env: PATH_ONLY,
        terminal: { cols: 80, rows: 24 },
      },
      { mode: 'explicit' },
      { sessionId: 's1', outputPath: join(dir, 'out.log') },
    )
    if (outcome.kind !== 'backgrounded') throw new Error('expected a task')
    const { taskId } = outcome.task
    // Typing keeps it alive past the limit.
    await new Promise((resolve) => setTimeout(resolve, 700))
    await terminals.input(taskId, { text: 'x' }, 'person')
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(registry.get(taskId)?.status).toBe('running')
    const ended = await new Promise<string>((resolve) =>
      registry.onEvent((event) => {
        if (event.type === 'completed') resolve(`${event.task.status} by ${event.task.stoppedBy}`)
      }),
    )
    expect(ended).toBe('stopped by idle')
    terminals.dispose()
  })
})
