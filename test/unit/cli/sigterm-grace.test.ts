import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'

/**
 * SIGTERM ends the CLI even when the command cannot finish by itself: here its output pipe is
 * full because the reader stalled, so the process would wait on that write forever. After the
 * grace the CLI dies by the signal itself.
 */
describe('SIGTERM to a CLI that is stuck writing to a stalled reader', () => {
  it('ends the process after the grace, by the signal', async () => {
    const cli = spawn(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', 'classify', '--stdin'], {
      env: { PATH: process.env.PATH },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stderr = ''
    cli.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      cli.once('exit', (code, signal) => resolve({ code, signal })),
    )
    // Far more verdicts than a pipe holds (64 KiB); stdout is never read, so the CLI's writes stall.
    const line = `${JSON.stringify('git status --short && ls -la /tmp')}\n`
    // Once signalled the CLI stops reading its questions and closes stdin: what is still unsent
    // then fails with EPIPE, which is expected here.
    cli.stdin.on('error', () => {})
    cli.stdin.write(line.repeat(20_000))
    // The pipe is full once the CLI has read its input and still has not exited; stdin stays open.
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error('the CLI never filled its stdout pipe')), 60_000)
      const poll = setInterval(() => {
        if (cli.stdout.readableLength > 0 || cli.stdin.writableLength === 0) {
          clearInterval(poll)
          clearTimeout(deadline)
          resolve()
        }
      }, 50)
    })
    cli.kill('SIGTERM')
    const guard = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('the CLI was still running 30 s after SIGTERM')), 30_000),
    )
    const ended = await Promise.race([exited, guard]).finally(() => {
      if (cli.exitCode === null && cli.signalCode === null) cli.kill('SIGKILL')
    })
    expect(ended).toEqual({ code: null, signal: 'SIGTERM' })
    expect(stderr).toContain('still busy 8 s after SIGTERM; exiting now')
  }, 120_000)
})
