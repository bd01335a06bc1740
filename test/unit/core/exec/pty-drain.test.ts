import { once } from 'node:events'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { IPty } from '@lydell/node-pty'
import { describe, expect, it } from 'vitest'
import { loadPty, ptySpawnFunction } from '../../../../src/main/core/exec/pty-spawn'
import { tempDirsRemovedAfterEach } from './temp-dir'

const tempDir = tempDirsRemovedAfterEach()
type PtyModule = Awaited<ReturnType<typeof loadPty>>

/**
 * A worker stalled past node-pty's 200 ms grace after the child's exit, made certain: the master
 * is never read by the event loop, so everything the child wrote is still in the kernel when
 * node-pty gives up on the stream.
 */
function stalled(pty: PtyModule): PtyModule {
  return {
    ...pty,
    spawn: (...args: Parameters<PtyModule['spawn']>) => {
      const term = pty.spawn(...args)
      const handle = (term as unknown as { _socket: { _handle: { readStop(): void; readStart(): number } } })
        ._socket._handle
      handle.readStop()
      handle.readStart = () => 0
      return term
    },
  }
}

async function runOnTerminal(pty: PtyModule, script: string) {
  const dir = tempDir()
  const path = join(dir, 'out.log')
  writeFileSync(path, '', { mode: 0o600 })
  const { dev, ino } = statSync(path)
  const seen: Buffer[] = []
  const spawn = ptySpawnFunction({
    pty,
    terminal: { cols: 80, rows: 24 },
    output: { path, identity: { dev, ino } },
    platform: process.platform,
    onTerminal: (terminal) => terminal.onData((chunk) => seen.push(chunk)),
  })
  const child = spawn('/bin/bash', ['-c', script], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  })
  const [code] = await once(child, 'close')
  return { code, file: readFileSync(path, 'utf8'), seen: Buffer.concat(seen).toString() }
}

describe('a terminal run whose output the event loop had not read when node-pty gave up', () => {
  it('node-pty by itself drops it: the loss the drain exists for', async () => {
    const pty = stalled(await loadPty())
    const term: IPty = pty.spawn('/bin/bash', ['-c', 'echo lost line'], { encoding: null } as never)
    const seen: string[] = []
    term.onData((data) => seen.push(String(data)))
    await new Promise((resolve) => term.onExit(resolve))
    expect(seen.join('')).toBe('')
  })

  it('still reaches the output file and the terminal listeners, every byte, in order', async () => {
    // 6 KiB: more than the kernel hands over in one read (4 KiB), less than a writer may leave
    // unread before it blocks (about 8 KiB here).
    const lines = Array.from({ length: 90 }, (_, i) => `line-${i}-${'x'.repeat(60)}`)
    const result = await runOnTerminal(
      stalled(await loadPty()),
      `printf '%s\\n' ${lines.join(' ')}; echo tag=last`,
    )
    expect(result.code).toBe(0)
    const expected = `${lines.map((line) => `${line}\r\n`).join('')}tag=last\r\n`
    expect(result.file).toBe(expected)
    expect(result.seen).toBe(expected)
  })

  it('with a background process still holding the terminal, reads what is there and ends, never hangs', async () => {
    const dir = tempDir()
    const pidFile = join(dir, 'sleeper.pid')
    const result = await runOnTerminal(
      stalled(await loadPty()),
      `sleep 30 & echo $! > ${pidFile}; echo before exit`,
    )
    const sleeper = Number(readFileSync(pidFile, 'utf8'))
    try {
      expect(result.code).toBe(0)
      expect(result.file).toBe('before exit\r\n')
    } finally {
      process.kill(sleeper, 'SIGKILL')
    }
  })
})
