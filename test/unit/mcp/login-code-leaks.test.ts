import { readFileSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { processIsAlive } from '../../../src/main/hub/hub-lock'
import { exchangeLoginCode } from '../../fixtures/browser-mode/login-code'
import { runCliCaptured } from '../cli/run-cli'
import { waitFor } from '../core/workbench/core-harness'
import { connectMcpClient, textOf } from './test-hub'

// A login code is the person's power for ten minutes. `shellgate mcp` starting a hub must not
// leave a live one where an agent can read it: the MCP server's stderr (the agent keeps it, Claude
// Code in its MCP log files) and run/hub.log.

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const CODE = /#code=[A-Za-z0-9_-]+/

describe('a hub started by shellgate mcp', { timeout: 90_000 }, () => {
  it('puts no login code in the agent’s stderr or in run/hub.log; the browser it opens and `shellgate ui` get one', async () => {
    const home = await realpath(await mkdtemp(join(tmpdir(), 'sg-code-leak-')))
    let hubPid: number | null = null
    cleanups.push(async () => {
      // Also when the test failed before it read hub.json: the detached hub must not outlive it.
      hubPid ??= await readFile(join(home, 'run', 'hub.json'), 'utf8')
        .then((text) => (JSON.parse(text) as { pid: number }).pid)
        .catch(() => null)
      if (hubPid !== null && processIsAlive(hubPid)) {
        process.kill(hubPid, 'SIGTERM')
        await waitFor(() => !processIsAlive(hubPid as number), 'the detached hub to stop', 20_000)
      }
      await rm(home, { recursive: true, force: true })
    })
    const rendererDir = join(home, 'renderer')
    await mkdir(rendererDir)
    await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>')
    // The system opener, as the desktop has one: it records the address it was given.
    const bin = join(home, 'bin')
    await mkdir(bin)
    const opened = join(home, 'opened-url')
    await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`)
    await chmod(join(bin, 'xdg-open'), 0o755)
    const env = {
      PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: home,
      SHELL: '/bin/sh',
      SHELLGATE_HOME: home,
      SHELLGATE_RENDERER_DIR: rendererDir,
    }
    // Its own folder: an agent's workspace may not be the home folder or SHELLGATE_HOME.
    const workspace = await realpath(await mkdtemp(join(tmpdir(), 'sg-mcp-cold-ws-')))
    cleanups.push(() => rm(workspace, { recursive: true, force: true }))
    const child = await connectMcpClient({ env, workspace })
    cleanups.push(() => child.close())
    hubPid = (JSON.parse(await readFile(join(home, 'run', 'hub.json'), 'utf8')) as { pid: number }).pid
    expect(textOf(await child.client.callTool({ name: 'bash', arguments: { command: 'echo up' } }))).toBe(
      'up',
    )

    const uiLine = /Shellgate UI: (\S+)/.exec(child.stderr())
    expect(uiLine?.[1]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    expect(child.stderr()).toContain('shellgate ui')
    expect(child.stderr()).not.toMatch(CODE)
    expect(await readFile(join(home, 'run', 'hub.log'), 'utf8')).not.toMatch(CODE)

    // The browser the person sees gets a working code of its own…
    const openedUrl = new URL(await waitFor(() => readIfThere(opened), 'the opener to be called'))
    expect(openedUrl.origin).toBe(new URL(uiLine?.[1] ?? '').origin)
    expect((await exchangeLoginCode(openedUrl)).status).toBe(200)
    // …and so does `shellgate ui`: the hub opens it, and what ui prints holds no code.
    await writeFile(opened, '')
    const ui = await runCliCaptured(['ui'], { env })
    expect(ui.code).toBe(0)
    expect(ui.stdout).not.toMatch(CODE)
    const fresh = new URL(await waitFor(() => readIfThere(opened), 'the hub to open another login'))
    expect(fresh.href).not.toBe(openedUrl.href)
    expect((await exchangeLoginCode(fresh)).status).toBe(200)
  })
})

function readIfThere(path: string): string | null {
  try {
    return readFileSync(path, 'utf8') || null
  } catch {
    return null
  }
}
