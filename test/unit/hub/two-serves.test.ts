import { exchangeLoginCode } from '../../fixtures/browser-mode/login-code'
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { chmod, lstat, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { connectToHub } from '../../../src/main/hub/hub-client'
import { runCliCaptured } from '../cli/run-cli'
import { waitFor } from '../core/workbench/core-harness'

let rendererDir: string
const children: ChildProcess[] = []
const dirs: string[] = []

beforeAll(async () => {
  rendererDir = await mkdtemp(join(tmpdir(), 'shellgate-hub-ui-'))
  dirs.push(rendererDir)
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Shellgate</title>')
})
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})
afterEach(async () => {
  for (const dir of dirs.splice(1)) await rm(dir, { recursive: true, force: true })
})

interface Serve {
  child: ChildProcess
  /** The first "Shellgate UI:" line. */
  url: Promise<URL>
  done: Promise<{ code: number | null; stdout: string; stderr: string }>
}

/** The desktop's opener, as the hub calls it: it records the address it was given. */
async function recordingOpener(home: string): Promise<{ path: string; opened: string }> {
  const bin = join(home, 'bin')
  await mkdir(bin, { recursive: true })
  const opened = join(home, 'opened-url')
  await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`)
  await chmod(join(bin, 'xdg-open'), 0o755)
  return { path: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, opened }
}

function startServe(home: string, path = process.env.PATH): Serve {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', 'serve'], {
    env: { PATH: path, SHELLGATE_RENDERER_DIR: rendererDir, SHELLGATE_HOME: home, HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let stdout = ''
  let stderr = ''
  const url = new Promise<URL>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      stdout += chunk
      const match = /Shellgate UI: (\S+)/.exec(stdout)
      if (match?.[1]) resolve(new URL(match[1]))
    })
    child.once('exit', (code) => reject(new Error(`exited ${code} before printing a URL: ${stderr}`)))
  })
  url.catch(() => undefined)
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stdout, stderr })),
  )
  return { child, url, done }
}

async function newHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'shellgate-hub-serve-'))
  dirs.push(home)
  return home
}

// Each serve starts under tsx: seconds apiece on a busy machine.
describe('one Shellgate per SHELLGATE_HOME (real serve processes)', { timeout: 120_000 }, () => {
  it('a second serve finds the first, prints its UI address, exits 0; a killed hub is taken over', async () => {
    const home = await newHome()
    const opener = await recordingOpener(home)
    const first = startServe(home, opener.path)
    const firstUrl = await first.url
    const hubInfo = JSON.parse(await readFile(join(home, 'run', 'hub.json'), 'utf8'))
    expect(hubInfo).toMatchObject({ pid: first.child.pid, uiUrl: `http://127.0.0.1:${firstUrl.port}/`, home })
    // The endpoint file carries no credential.
    const firstCode = new URLSearchParams(firstUrl.hash.slice(1)).get('code')
    expect(firstCode).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(JSON.stringify(hubInfo)).not.toContain(firstCode)

    const second = startServe(home)
    const secondResult = await second.done
    expect(secondResult.code).toBe(0)
    // The running hub's bare address: a login code never crosses the hub socket (issue 20).
    expect(secondResult.stdout).toBe(`Shellgate UI: http://127.0.0.1:${firstUrl.port}/\n`)
    expect(secondResult.stderr).toContain(`Shellgate is already running for ${home}`)
    expect(secondResult.stderr).toContain('shellgate ui')
    // `shellgate ui` has the hub open a login in the browser; it prints the bare address only.
    const ui = await runCliCaptured(['ui'], { env: { PATH: process.env.PATH, SHELLGATE_HOME: home } })
    expect(ui.code).toBe(0)
    expect(ui.stdout).toBe(`Shellgate UI: http://127.0.0.1:${firstUrl.port}/\n`)
    const openedUrl = await waitFor(() => {
      try {
        return readFileSync(opener.opened, 'utf8') || null
      } catch {
        return null
      }
    }, 'the hub to open a login')
    expect(openedUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${firstUrl.port}/#code=[A-Za-z0-9_-]{43}$`))
    expect(openedUrl).not.toBe(firstUrl.href)
    expect((await exchangeLoginCode(new URL(openedUrl))).status).toBe(200)

    // A crash leaves the socket, the lock and hub.json behind: the next serve takes them over.
    first.child.kill('SIGKILL')
    await first.done
    expect((await lstat(join(home, 'run', 'hub.sock'))).isSocket()).toBe(true)
    expect(await connectToHub({ home })).toBeNull()
    const third = startServe(home)
    const thirdUrl = await third.url
    expect(thirdUrl.port).not.toBe('')
    const connection = await connectToHub({ home })
    expect(connection).not.toBeNull()
    const info = JSON.parse(await readFile(join(home, 'run', 'hub.json'), 'utf8'))
    expect(connection?.hubId).toBe(info.hubId)
    expect(info.hubId).not.toBe(hubInfo.hubId)
    expect(info.pid).toBe(third.child.pid)
    await connection?.close()

    // A clean stop removes the endpoint, its file and the lock.
    third.child.kill('SIGINT')
    expect((await third.done).code).toBe(0)
    for (const name of ['hub.sock', 'hub.json', 'hub.lock'])
      await expect(lstat(join(home, 'run', name))).rejects.toThrow()
  })

  it('two serves started at the same moment: exactly one core, the other prints its address', async () => {
    const home = await newHome()
    const a = startServe(home)
    const b = startServe(home)
    const [urlA, urlB] = await Promise.all([a.url, b.url])
    // Both print the one hub's port; one of them exits 0 at once, the other keeps serving.
    expect(urlA.port).toBe(urlB.port)
    const exited = await Promise.race([a.done.then(() => a), b.done.then(() => b)])
    expect((await exited.done).code).toBe(0)
    const survivor = exited === a ? b : a
    expect(survivor.child.exitCode).toBeNull()
    const info = JSON.parse(await readFile(join(home, 'run', 'hub.json'), 'utf8'))
    expect(info.pid).toBe(survivor.child.pid)
    survivor.child.kill('SIGINT')
    expect((await survivor.done).code).toBe(0)
  })
})
