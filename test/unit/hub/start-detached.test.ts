import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { connectToHub } from '../../../src/main/hub/hub-client'
import { HubError } from '../../../src/main/hub/hub-error'
import { processIsAlive } from '../../../src/main/hub/hub-lock'
import { startDetachedHub } from '../../../src/main/hub/start-hub'
import { waitFor } from './hub-harness'

const dirs: string[] = []
const pids: number[] = []
afterEach(async () => {
  for (const pid of pids.splice(0)) {
    if (processIsAlive(pid)) process.kill(pid, 'SIGTERM')
    await waitFor(() => !processIsAlive(pid), `hub ${pid} to stop`)
  }
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

/** Pids of every `shellgate serve --workspace <workspace>` on this machine. */
function servesFor(workspace: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
        return argv.includes('serve') && argv.includes(workspace)
      } catch {
        return false
      }
    })
    .map(Number)
}

async function temp(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  dirs.push(dir)
  return dir
}

describe('startDetachedHub', () => {
  it('starts serve in its own process group (out of reach of the caller’s Ctrl+C) and returns once the endpoint answers', async () => {
    const home = await temp('shellgate-detached-home-')
    const workspace = await temp('shellgate-detached-ws-')
    const rendererDir = await temp('shellgate-detached-ui-')
    await writeFile(join(rendererDir, 'index.html'), '<!doctype html>')
    const { uiUrl } = await startDetachedHub({
      home,
      workspace,
      env: { PATH: process.env.PATH, HOME: home, SHELLGATE_RENDERER_DIR: rendererDir },
    })
    const info = JSON.parse(await readFile(join(home, 'run', 'hub.json'), 'utf8'))
    pids.push(info.pid)
    // The bare UI address: a login code is the hub's to open in the browser (hub.openUi), never the caller's.
    expect(uiUrl).toBe(info.uiUrl)
    expect(info.uiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    // Detached: the hub leads its own process group, so our terminal's Ctrl+C does not reach it.
    const stat = await readFile(`/proc/${info.pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    expect(Number(fields[2])).toBe(info.pid)
    const connection = await connectToHub({ home })
    expect(connection?.hubId).toBe(info.hubId)
    await connection?.close()
    // A second start finds the running hub instead of starting another core.
    const again = await startDetachedHub({
      home,
      workspace,
      env: { PATH: process.env.PATH, HOME: home, SHELLGATE_RENDERER_DIR: rendererDir },
    })
    expect(again.uiUrl).toBe(info.uiUrl)
    expect(JSON.parse(await readFile(join(home, 'run', 'hub.json'), 'utf8')).pid).toBe(info.pid)
    // …and started no second serve: one left starting would claim the home once this hub stops.
    expect(servesFor(workspace)).toEqual([info.pid])
  })

  it('a hub that cannot start is reported with its own words, coded', async () => {
    const home = await temp('shellgate-detached-home-')
    const workspace = await temp('shellgate-detached-ws-')
    const error = await startDetachedHub({
      home,
      workspace,
      env: { PATH: process.env.PATH, HOME: home, SHELLGATE_RENDERER_DIR: join(home, 'no-ui-here') },
    }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(HubError)
    expect((error as HubError).code).toBe('hub_start_failed')
    expect((error as HubError).message).toContain('the UI is not built')
  })
})
