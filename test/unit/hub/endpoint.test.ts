import type { ListenOptions, Server } from 'node:net'
import { describe, expect, it } from 'vitest'
import { hubEndpoint } from '../../../src/main/hub/endpoint'
import { listenOnEndpoint, type ListenOps } from '../../../src/main/hub/hub-listen'
import { runDirProblem } from '../../../src/main/hub/run-dir'

function recordingOps(): { ops: ListenOps; calls: unknown[] } {
  const calls: unknown[] = []
  return {
    calls,
    ops: {
      async listen(_server: Server, options: ListenOptions) {
        calls.push(['listen', options])
      },
      async chmod(path: string, mode: number) {
        calls.push(['chmod', path, mode.toString(8)])
      },
    },
  }
}

describe('the hub endpoint per platform', () => {
  it('posix: a socket in SHELLGATE_HOME/run, chmod 0600 right after listen', async () => {
    const endpoint = hubEndpoint({ home: '/home/ann/.shellgate', platform: 'linux', user: 'ann' })
    expect(endpoint).toEqual({
      kind: 'unix-socket',
      path: '/home/ann/.shellgate/run/hub.sock',
      runDir: '/home/ann/.shellgate/run',
      infoFile: '/home/ann/.shellgate/run/hub.json',
      lockFile: '/home/ann/.shellgate/run/hub.lock',
    })
    const { ops, calls } = recordingOps()
    await listenOnEndpoint({} as Server, endpoint, ops)
    expect(calls).toEqual([
      ['listen', { path: '/home/ann/.shellgate/run/hub.sock', readableAll: false, writableAll: false }],
      ['chmod', '/home/ann/.shellgate/run/hub.sock', '600'],
    ])
  })

  it('win32: a per-user pipe whose name depends on the home and a private salt, never world-open', async () => {
    const input = {
      home: 'C:\\Users\\Ann\\.shellgate',
      platform: 'win32' as const,
      user: 'Ann',
      pipeSalt: 'a'.repeat(32),
    }
    const endpoint = hubEndpoint(input)
    expect(endpoint.kind).toBe('named-pipe')
    expect(endpoint.path).toMatch(/^\\\\\.\\pipe\\shellgate-ann-[0-9a-f]{16}$/)
    expect(endpoint.runDir).toBe('C:\\Users\\Ann\\.shellgate\\run')
    expect(endpoint.infoFile).toBe('C:\\Users\\Ann\\.shellgate\\run\\hub.json')
    // The same home in another case is the same folder on Windows, so the same pipe.
    expect(hubEndpoint({ ...input, home: 'c:\\users\\ann\\.SHELLGATE' }).path).toBe(endpoint.path)
    // Another home, or another salt (which another user cannot read), is another name.
    expect(hubEndpoint({ ...input, home: 'D:\\other' }).path).not.toBe(endpoint.path)
    expect(hubEndpoint({ ...input, pipeSalt: 'b'.repeat(32) }).path).not.toBe(endpoint.path)
    // A user name cannot inject path characters into the pipe name.
    expect(hubEndpoint({ ...input, user: 'a\\..\\b' }).path).toMatch(/^\\\\\.\\pipe\\shellgate-a_\.\._b-/)

    const { ops, calls } = recordingOps()
    await listenOnEndpoint({} as Server, endpoint, ops)
    // No chmod on Windows (pipes have no mode); readable/writableAll false keeps the owner-only DACL.
    expect(calls).toEqual([['listen', { path: endpoint.path, readableAll: false, writableAll: false }]])
  })
})

describe('run/ must be a private directory of this user', () => {
  const stat = (over: { uid?: number; mode?: number; dir?: boolean; link?: boolean }) => ({
    uid: over.uid ?? 1000,
    mode: over.mode ?? 0o40700,
    isDirectory: () => over.dir ?? true,
    isSymbolicLink: () => over.link ?? false,
  })
  it.each([
    ['0700, ours', stat({}), null],
    ['0750', stat({ mode: 0o40750 }), 'too_open'],
    ['0777', stat({ mode: 0o40777 }), 'too_open'],
    ['0701', stat({ mode: 0o40701 }), 'too_open'],
    ['another user', stat({ uid: 1001 }), 'not_owned'],
    ['a symlink', stat({ link: true, dir: false }), 'not_a_directory'],
    ['a file', stat({ dir: false }), 'not_a_directory'],
  ])('%s', (_name, info, problem) => {
    expect(runDirProblem(info, 1000)).toBe(problem)
  })
})
