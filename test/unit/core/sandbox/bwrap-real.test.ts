import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import { hiddenPaths, hostSocketPaths, protectedPaths } from '../../../../src/main/core/sandbox/sandbox-paths'
import type { ExecutionSandbox } from '../../../../src/main/core/sandbox/types'
import { SandboxSettingsSchema } from '../../../../src/shared/settings'
import { sandboxWorlds } from './sandbox-fixture'

const port = createExecutionPort()
const world = sandboxWorlds()
const ENV = { PATH: '/usr/bin:/bin', HOME: '/nonexistent' }

function run(sandbox: ExecutionSandbox, script: string, cwd = sandbox.workspace) {
  return port.execute({
    command: { mode: 'shell', command: script, shellProfile: 'posix-bash' },
    cwd,
    env: ENV,
    timeoutMs: 20_000,
    sandbox,
  })
}

describe('bubblewrap, for real', () => {
  it('workspace-write: the workspace is writable, a write outside it fails with EROFS', async () => {
    const w = world()
    const result = await run(w.base(), `echo in > ws-file; echo out > '${w.outside}/x'; echo rc=$?`)
    expect(readFileSync(join(w.workspace, 'ws-file'), 'utf8')).toBe('in\n')
    expect(existsSync(join(w.outside, 'x'))).toBe(false)
    expect(result.stderr).toContain('Read-only file system')
    expect(result.stdout).toContain('rc=1')
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

  it('~/.ssh, ~/.netrc and SHELLGATE_HOME read as empty', async () => {
    const w = world()
    const result = await run(
      w.base(),
      `ls -A '${w.home}/.ssh' | wc -l; wc -c < '${w.home}/.netrc'; ls -A '${w.dataDir}' | wc -l; cat '${w.home}/.ssh/id_ed25519'`,
    )
    expect(result.stdout).toBe('0\n0\n0\n')
    expect(result.stderr).toContain('No such file or directory')
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
    // The rest of SHELLGATE_HOME stays hidden: settings.json is not there.
    expect(result.stdout).not.toContain('settings.json')
  })

  it('.git/hooks, .git/config and <workspace>/.shellgate cannot be written under workspace-write', async () => {
    const w = world()
    const result = await run(
      w.base(),
      'echo evil > .git/hooks/pre-commit; echo "[alias]" >> .git/config; echo {} > .shellgate/settings.json; echo ok > .git/HEAD-ish; echo done',
    )
    expect(existsSync(join(w.workspace, '.git', 'hooks', 'pre-commit'))).toBe(false)
    expect(readFileSync(join(w.workspace, '.git', 'config'), 'utf8')).toBe('[core]\n')
    expect(existsSync(join(w.workspace, '.shellgate', 'settings.json'))).toBe(false)
    // The rest of .git stays writable (git must be able to commit).
    expect(readFileSync(join(w.workspace, '.git', 'HEAD-ish'), 'utf8')).toBe('ok\n')
    expect(result.stdout).toBe('done\n')
  })

  it('a symlinked .git/hooks cannot be swapped for a real folder of hooks', async () => {
    const w = world()
    rmSync(join(w.workspace, '.git', 'hooks'), { recursive: true })
    mkdirSync(join(w.root, 'hooks-target'))
    symlinkSync(join(w.root, 'hooks-target'), join(w.workspace, '.git', 'hooks'))
    const sandbox = w.base({ protectedPaths: protectedPaths(w.workspace) })
    await run(sandbox, 'rm .git/hooks; mkdir .git/hooks; echo evil > .git/hooks/pre-commit')
    expect(lstatSync(join(w.workspace, '.git', 'hooks')).isSymbolicLink()).toBe(true)
    expect(existsSync(join(w.root, 'hooks-target', 'pre-commit'))).toBe(false)
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
        env: ENV,
        timeoutMs: 20_000,
      })
      expect(shared.stdout).toContain('reached')
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('an unknown profile name is refused before anything runs', async () => {
    const w = world()
    await expect(run({ ...w.base(), profile: 'wide-open' as never }, 'true')).rejects.toThrow(
      /unknown sandbox profile "wide-open"/,
    )
  })
})

describe('host Unix sockets, for real', () => {
  /** connect() from inside the sandbox; prints "connected" or the error. */
  const connectScript = (path: string) =>
    `python3 -c "import socket,sys
s=socket.socket(socket.AF_UNIX)
try:
  s.connect(sys.argv[1]); print('connected')
except OSError as e:
  print('refused', e.errno)" '${path}'`

  it('a socket outside /tmp is reachable through a read-only bind, and hidden, it is not (Docker, agents, the session bus)', async () => {
    const w = world()
    const runtimeDir = join(w.root, 'run-user')
    mkdirSync(runtimeDir)
    const dockerLike = join(w.root, 'docker.sock')
    const agentLike = join(runtimeDir, 'agent.sock')
    const servers = [createServer(), createServer()]
    await Promise.all(
      servers.map(
        (server, index) => new Promise<void>((done) => server.listen(index ? agentLike : dockerLike, done)),
      ),
    )
    try {
      // Why the list exists: read-only does not stop connect().
      const open = await run(w.base({ profile: 'read-only' }), connectScript(dockerLike))
      expect(open.stdout).toBe('connected\n')

      const hidden = hiddenPaths(w.home, w.dataDir, SandboxSettingsSchema.parse({}), [dockerLike, runtimeDir])
      expect(hidden).toEqual(
        expect.arrayContaining([
          { path: dockerLike, kind: 'file' },
          { path: runtimeDir, kind: 'dir' },
        ]),
      )
      const sandbox = w.base({ profile: 'read-only', hidden: [...w.base().hidden, ...hidden] })
      const result = await run(sandbox, `${connectScript(dockerLike)}; ${connectScript(agentLike)}`)
      expect(result.stdout).toMatch(/^refused \d+\nrefused \d+\n$/)
    } finally {
      await Promise.all(servers.map((server) => new Promise((done) => server.close(done))))
    }
  })

  it('the built-in list names Docker, containerd, podman and the user runtime folder', () => {
    expect(hostSocketPaths(1000)).toEqual(
      expect.arrayContaining([
        '/run/docker.sock',
        '/var/run/docker.sock',
        '/run/containerd',
        '/run/user/1000',
      ]),
    )
    expect(hostSocketPaths(null).some((path) => path.startsWith('/run/user/'))).toBe(true)
  })
})
