import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

const SCRIPT = '/usr/bin/script'
const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

// util-linux `script` gives serve a real terminal (a pty), which is what the key press needs.
describe.skipIf(!existsSync(SCRIPT))('serve in a terminal', () => {
  it('u prints a fresh UI address; Ctrl+C still stops it cleanly', async () => {
    const home = await mkdtemp(join(tmpdir(), 'shellgate-key-home-'))
    const rendererDir = await mkdtemp(join(tmpdir(), 'shellgate-key-ui-'))
    dirs.push(home, rendererDir)
    await writeFile(join(rendererDir, 'index.html'), '<!doctype html>')
    const child = spawn(
      SCRIPT,
      ['-qfec', `${process.execPath} --import tsx src/main/cli.ts serve`, '/dev/null'],
      {
        env: {
          PATH: process.env.PATH,
          SHELLGATE_HOME: home,
          HOME: home,
          SHELLGATE_RENDERER_DIR: rendererDir,
        },
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    )
    let seen = ''
    const waiters = new Set<() => void>()
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8')
      for (const waiter of [...waiters]) waiter()
    })
    const ended = new Promise<number | null>((resolve) => child.once('close', resolve))
    const waitForText = (pattern: RegExp) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(seen)
          if (!match) return
          waiters.delete(check)
          resolve(match)
        }
        waiters.add(check)
        void ended.then(() => reject(new Error(`ended before ${pattern}: ${seen}`)))
        check()
      })
    try {
      const first = await waitForText(/Shellgate UI: http:\/\/127\.0\.0\.1:(\d+)\/\S*[\s\S]*Press u/)
      child.stdin?.write('u')
      const fresh = await waitForText(/Press u[^\n]*\n[\s\S]*Shellgate UI: (\S+)/)
      expect(fresh[1]).toBe(`http://127.0.0.1:${first[1]}/`)
      child.stdin?.write('\u0003')
      expect(await ended).toBe(0)
      expect(seen).toContain('Shellgate UI stopped.')
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  })
})
