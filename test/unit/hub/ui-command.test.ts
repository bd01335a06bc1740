import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { connectToHub } from '../../../src/main/hub/hub-client'
import { runCliCaptured } from '../cli/run-cli'
import { type InProcessHub, startInProcessHub } from './hub-harness'

let hub: InProcessHub | undefined
const dirs: string[] = []
afterEach(async () => {
  await hub?.close()
  hub = undefined
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})
const env = (home: string) => ({ PATH: process.env.PATH, SHELLGATE_HOME: home })

describe('shellgate ui', () => {
  it('has the hub open the login (the code never reaches it), prints the bare address, exits 4 when no browser opened', async () => {
    hub = await startInProcessHub()
    expect(await runCliCaptured(['ui'], { env: env(hub.home) })).toEqual({
      code: 4,
      stdout: 'Shellgate UI: http://127.0.0.1:1/\n',
      stderr: 'shellgate ui: the test hub opens no browser\n',
    })
    const json = await runCliCaptured(['ui', '--json'], { env: env(hub.home) })
    expect(JSON.parse(json.stdout)).toEqual({
      opened: false,
      url: 'http://127.0.0.1:1/',
      message: 'the test hub opens no browser',
      hubId: hub.running.info.hubId,
    })
  })

  it('an agent connection (the hub socket) cannot mint a login address', async () => {
    hub = await startInProcessHub()
    const connection = await connectToHub({ home: hub.home })
    try {
      await expect(connection?.client.request('hub.mintUiAddress', {})).rejects.toMatchObject({
        code: 'denied',
        message: expect.stringMatching(/only the person/),
      })
    } finally {
      await connection?.close()
    }
  })

  it('exits 3 when no hub runs, and 2 with the code when the endpoint is foreign', async () => {
    const home = await mkdtemp(join(tmpdir(), 'shellgate-ui-'))
    dirs.push(home)
    expect(await runCliCaptured(['ui'], { env: env(home) })).toEqual({
      code: 3,
      stdout: '',
      stderr: `shellgate ui: no Shellgate is running for ${home}; start one with shellgate serve\n`,
    })
    await mkdir(join(home, 'run'), { mode: 0o700 })
    await writeFile(join(home, 'run', 'hub.sock'), 'not a socket')
    const foreign = await runCliCaptured(['ui'], { env: env(home) })
    expect(foreign.code).toBe(2)
    expect(foreign.stderr).toMatch(/^shellgate ui: .*hub\.sock is not a socket.* \[hub_foreign\]\n$/)
  })

  it('a desktop-app hub (no browser UI): ui says so and exits 3; serve says so and starts nothing', async () => {
    hub = await startInProcessHub({ uiUrl: null })
    expect(await runCliCaptured(['ui'], { env: env(hub.home) })).toEqual({
      code: 3,
      stdout: '',
      stderr: `shellgate ui: Shellgate runs for ${hub.home} as the desktop app, which has no browser UI; use its window\n`,
    })
    const rendererDir = await mkdtemp(join(tmpdir(), 'shellgate-ui-renderer-'))
    dirs.push(rendererDir)
    await writeFile(join(rendererDir, 'index.html'), '<!doctype html>')
    const serve = await runCliCaptured(['serve'], {
      env: { ...env(hub.home), SHELLGATE_RENDERER_DIR: rendererDir },
    })
    expect(serve).toEqual({
      code: 0,
      stdout: '',
      stderr: `shellgate serve: Shellgate is already running for ${hub.home} as the desktop app; use its window (no second one started)\n`,
    })
    expect(hub.host.core.sessions.list()).toHaveLength(1)
  })
})
