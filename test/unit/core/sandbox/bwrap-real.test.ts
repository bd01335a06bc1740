import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import type { ExecutionSandbox } from '../../../../src/main/core/sandbox/types'
import { sandboxWorlds, TEST_PATH } from './sandbox-fixture'

const port = createExecutionPort()
const world = sandboxWorlds()

function run(sandbox: ExecutionSandbox, script: string, cwd = sandbox.workspace, home = '/nonexistent') {
  return port.execute({
    command: { mode: 'shell', command: script, shellProfile: 'posix-bash' },
    cwd,
    env: { PATH: TEST_PATH, HOME: home },
    timeoutMs: 20_000,
    sandbox,
  })
}

describe('bubblewrap, for real, with the product mount table', () => {
  it('workspace-write: the workspace is writable; outside it, a mounted folder is read-only and the rest is not there', async () => {
    const w = world()
    const result = await run(
      w.base(),
      `echo in > ws-file; echo out > /etc/x; echo rc=$?; echo out > '${w.outside}/x'; echo rc=$?`,
    )
    expect(readFileSync(join(w.workspace, 'ws-file'), 'utf8')).toBe('in\n')
    expect(existsSync(join(w.outside, 'x'))).toBe(false)
    expect(result.stderr).toContain('/etc/x: Read-only file system')
    expect(result.stderr).toContain(`${w.outside}/x: No such file or directory`)
    expect(result.stdout).toBe('rc=1\nrc=1\n')
  })

  it('read-only: a write fails even inside the workspace (the profile is forced, whatever a verdict said)', async () => {
    const w = world()
    const result = await run(
      w.base({ profile: 'read-only' }),
      'echo x > ws-file; echo rc=$?; echo t > /tmp/t && cat /tmp/t',
    )
    expect(existsSync(join(w.workspace, 'ws-file'))).toBe(false)
    expect(result.stderr).toContain('Read-only file system')
    // The private tmp is the one writable place, and it is empty and gone after the run.
    expect(result.stdout).toBe('rc=1\nt\n')
  })

  it('deny by default: the root holds the system folders, the workspace and an empty home, nothing else of the host', async () => {
    const w = world()
    for (const profile of ['read-only', 'workspace-write'] as const) {
      const result = await run(
        w.base({ profile }),
        `ls -A /; echo ---; ls -A '${w.root}'; echo ---; ls -A '${w.home}' | wc -l`,
      )
      const [top, root, home] = result.stdout.split('---\n').map((part) => part.trim().split('\n'))
      for (const absent of ['home', 'root', 'run', 'srv', 'mnt', 'sys', 'boot', 'work']) {
        expect(top).not.toContain(absent)
      }
      expect(top).toEqual(expect.arrayContaining(['usr', 'etc', 'bin', 'tmp', 'dev', 'proc']))
      // The fixture root shows the workspace and the (emptied) home; `outside` is not there.
      expect(root!.sort()).toEqual(['home', 'ws'])
      expect(home).toEqual(['0'])
    }
  })

  it('the executor files re-bound inside a hidden SHELLGATE_HOME work: the snapshot reads, the cwd file writes', async () => {
    const w = world()
    const snapshot = join(w.dataDir, 'snap.sh')
    const cwdFile = join(w.dataDir, 'exec', 'cwd-1')
    writeFileSync(snapshot, 'greet() { echo hello from the snapshot; }\n')
    writeFileSync(cwdFile, '')
    const sandbox = w.base({
      exposed: [
        { path: snapshot, writable: false },
        { path: cwdFile, writable: true },
      ],
    })
    const result = await run(sandbox, `. '${snapshot}'; greet; pwd -P >| '${cwdFile}'; ls -A '${w.dataDir}'`)
    expect(result.stdout).toBe('hello from the snapshot\nexec\nsnap.sh\n')
    expect(readFileSync(cwdFile, 'utf8')).toBe(`${w.workspace}\n`)
    // The rest of SHELLGATE_HOME is not there: settings.json is not mounted.
    expect(result.stdout).not.toContain('settings.json')
  })

  it('as root, `mount -o remount,rw /` fails inside and no capability is left', async () => {
    const w = world()
    const result = await run(w.base(), 'mount -o remount,rw / ; echo rc=$?; grep CapEff /proc/self/status')
    expect(result.stdout).toMatch(/rc=(?!0\b)\d+\nCapEff:\s+0000000000000000\n/)
  })

  it('the read-only profile has no network: a 127.0.0.1 server on the host cannot be reached', async () => {
    const w = world()
    const server = createServer((socket) => socket.end('reached\n'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const serverPort = (server.address() as { port: number }).port
    try {
      const probe = `exec 3<>/dev/tcp/127.0.0.1/${serverPort} && cat <&3; echo rc=$?`
      const inside = await run(w.base({ profile: 'read-only', network: 'on' }), probe)
      expect(inside.stdout).not.toContain('reached')
      expect(inside.stderr).toContain('Connection refused')
      // The same probe outside the sandbox reaches it: the test can fail.
      const shared = await port.execute({
        command: { mode: 'shell', command: probe, shellProfile: 'posix-bash' },
        cwd: w.workspace,
        env: { PATH: TEST_PATH },
        timeoutMs: 20_000,
      })
      expect(shared.stdout).toContain('reached')
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('an unknown profile name, or a missing mount list, is refused before anything runs', async () => {
    const w = world()
    await expect(run({ ...w.base(), profile: 'wide-open' as never }, 'true')).rejects.toThrow(
      /unknown sandbox profile "wide-open"/,
    )
    await expect(run({ ...w.base(), readable: undefined as never }, 'true')).rejects.toThrow(
      'sandbox.readable must be a list',
    )
  })
})
