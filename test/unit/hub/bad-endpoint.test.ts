import { spawn } from 'node:child_process'
import { chmod, chown, lstat, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { connectToHub } from '../../../src/main/hub/hub-client'
import { HubError } from '../../../src/main/hub/hub-error'
import { claimHub } from '../../../src/main/hub/hub-server'
import { type InProcessHub, startInProcessHub } from './hub-harness'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function freshHome(): Promise<{ home: string; run: string; socket: string }> {
  const home = await mkdtemp(join(tmpdir(), 'shellgate-hub-bad-'))
  cleanups.push(() => rm(home, { recursive: true, force: true }))
  const run = join(home, 'run')
  await mkdir(run, { mode: 0o700 })
  return { home, run, socket: join(run, 'hub.sock') }
}

async function hubErrorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
    return 'no error'
  } catch (error) {
    if (error instanceof HubError) return error.code
    throw error
  }
}

async function listen(server: Server, path: string): Promise<Server> {
  const connections = new Set<{ destroy(): void }>()
  server.on('connection', (connection) => {
    connections.add(connection)
    connection.on('error', () => undefined)
  })
  await new Promise<void>((resolve) => server.listen(path, resolve))
  cleanups.push(async () => {
    for (const connection of connections) connection.destroy()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return server
}

const claim = (home: string, warnings: string[] = []) =>
  claimHub({ home, platform: 'linux', warn: (message) => warnings.push(message) })

async function running(): Promise<InProcessHub> {
  const hub = await startInProcessHub()
  cleanups.push(() => hub.close())
  return hub
}

describe('a hub endpoint that is not ours is refused with a code, changed by nobody, and nothing hangs', () => {
  it('no run/ or no socket: there is no hub (null), not an error', async () => {
    const home = await mkdtemp(join(tmpdir(), 'shellgate-hub-none-'))
    cleanups.push(() => rm(home, { recursive: true, force: true }))
    expect(await connectToHub({ home })).toBeNull()
    await mkdir(join(home, 'run'), { mode: 0o700 })
    expect(await connectToHub({ home })).toBeNull()
  })

  it('a regular file at the socket path: foreign, never deleted', async () => {
    const { home, socket } = await freshHome()
    await writeFile(socket, 'precious data')
    expect(await hubErrorCode(connectToHub({ home }))).toBe('hub_foreign')
    expect(await hubErrorCode(claim(home))).toBe('hub_foreign')
    expect(await readFile(socket, 'utf8')).toBe('precious data')
    // The failed claim gave its lock back: the next starter is not told a hub is running.
    await expect(lstat(join(home, 'run', 'hub.lock'))).rejects.toThrow()
  })

  it('a foreign server answering nonsense on the socket: foreign, and it keeps its socket', async () => {
    const { home, socket } = await freshHome()
    const server = await listen(
      createServer((connection) => {
        connection.end('SSH-2.0-OpenSSH_9.6 not a hub\r\n')
      }),
      socket,
    )
    expect(await hubErrorCode(connectToHub({ home }))).toBe('hub_foreign')
    expect(await hubErrorCode(claim(home))).toBe('hub_foreign')
    expect((await lstat(socket)).isSocket()).toBe(true)
    expect(server.listening).toBe(true)
  })

  it('an HTTP server that is not a hub: foreign', async () => {
    const { home, socket } = await freshHome()
    const { createServer: createHttpServer } = await import('node:http')
    const http = createHttpServer((_request, response) => {
      response.writeHead(200)
      response.end('hello')
    })
    await new Promise<void>((resolve) => http.listen(socket, resolve))
    cleanups.push(() => new Promise<void>((resolve) => http.close(() => resolve())))
    expect(await hubErrorCode(connectToHub({ home }))).toBe('hub_foreign')
  })

  it('a listener that accepts and never answers: unresponsive, within the bound', async () => {
    const { home, socket } = await freshHome()
    await listen(createServer(), socket)
    expect(await hubErrorCode(connectToHub({ home }))).toBe('hub_unresponsive')
  })

  it('a stale socket (its listener died): no hub, and the next hub takes it over', async () => {
    const { home, socket } = await freshHome()
    const child = spawn(
      process.execPath,
      ['-e', `require('net').createServer().listen(${JSON.stringify(socket)}, () => console.log('up'))`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    await new Promise((resolve) => child.stdout?.once('data', resolve))
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await exited
    expect((await lstat(socket)).isSocket()).toBe(true)
    expect(await connectToHub({ home })).toBeNull()
    const outcome = await claim(home)
    expect(outcome.kind).toBe('claimed')
    if (outcome.kind === 'claimed') await outcome.claim.release()
    await expect(lstat(socket)).rejects.toThrow()
  })

  it('run/ open to other users: the client refuses; a starting hub closes it to 0700 and says so', async () => {
    const { home, run } = await freshHome()
    await chmod(run, 0o755)
    expect(await hubErrorCode(connectToHub({ home }))).toBe('hub_run_dir_unsafe')
    expect((await stat(run)).mode & 0o777).toBe(0o755)
    const warnings: string[] = []
    const outcome = await claim(home, warnings)
    expect(outcome.kind).toBe('claimed')
    if (outcome.kind === 'claimed') await outcome.claim.release()
    expect((await stat(run)).mode & 0o777).toBe(0o700)
    expect(warnings).toEqual([`${run} was open to other users; its mode is now 0700`])
  })

  it.skipIf(process.getuid?.() !== 0)('run/ of another user: refused by client and hub alike', async () => {
    const { home, run } = await freshHome()
    await chown(run, 12_345, 12_345)
    expect(await hubErrorCode(connectToHub({ home }))).toBe('hub_run_dir_unsafe')
    expect(await hubErrorCode(claim(home))).toBe('hub_run_dir_unsafe')
    expect((await stat(run)).uid).toBe(12_345)
  })

  it('hub.json garbage while a hub answers: malformed; the hub itself is untouched', async () => {
    const hub = await running()
    const infoFile = join(hub.home, 'run', 'hub.json')
    const good = await readFile(infoFile, 'utf8')
    await writeFile(infoFile, '\u0000garbage{')
    expect(await hubErrorCode(connectToHub({ home: hub.home }))).toBe('hub_malformed')
    await writeFile(infoFile, JSON.stringify({ hubId: 'x' }))
    expect(await hubErrorCode(connectToHub({ home: hub.home }))).toBe('hub_malformed')
    await writeFile(infoFile, good)
    const connection = await connectToHub({ home: hub.home })
    expect(connection?.hubId).toBe(hub.running.info.hubId)
    await connection?.close()
  })

  it('hub.json of another hub: the hubId does not match what the hub says, refused', async () => {
    const hub = await running()
    const infoFile = join(hub.home, 'run', 'hub.json')
    const info = JSON.parse(await readFile(infoFile, 'utf8'))
    await writeFile(infoFile, JSON.stringify({ ...info, hubId: 'another-hubs-id-000000' }))
    const error = await connectToHub({ home: hub.home }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(HubError)
    expect((error as HubError).code).toBe('hub_mismatch')
    expect((error as HubError).message).not.toContain('another-hubs-id')
  })

  it('a second claim on a home whose hub runs says which pid holds it', async () => {
    const hub = await running()
    expect(await claim(hub.home)).toEqual({ kind: 'running', pid: process.pid })
    expect((await lstat(join(hub.home, 'run', 'hub.sock'))).mode & 0o777).toBe(0o600)
  })
})
