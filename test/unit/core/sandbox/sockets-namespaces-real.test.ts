import { execFileSync } from 'node:child_process'
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import { networkRuleSet } from '../../../../src/main/core/sandbox/network-rule-set'
import { approvalSandbox } from '../../../../src/main/core/workbench/call-sandbox'
import { wrapSpawnPlan } from '../../../../src/main/core/sandbox/wrap-plan'
import type { EnforcedProfile } from '../../../../src/main/core/sandbox/types'
import { SandboxSettingsSchema } from '../../../../src/shared/settings'
import { type SandboxWorld, sandboxWorlds, TEST_PATH, type WorldOptions } from './sandbox-fixture'

const port = createExecutionPort()
const world = sandboxWorlds()
const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))))
})

async function listen(path: string): Promise<string> {
  const server = createServer((socket) => {
    socket.on('error', () => undefined)
    socket.end('reached\n')
  })
  servers.push(server)
  await new Promise<void>((done) => server.listen(path, done))
  return path
}

/** connect() from inside; prints "connected" or "refused <errno>". */
const connect = (path: string) =>
  `python3 -c "import socket,sys
s=socket.socket(socket.AF_UNIX)
try:
  s.connect(sys.argv[1]); print('connected')
except OSError as e:
  print('refused', e.errno)" '${path}'`

async function runIn(w: SandboxWorld, profile: EnforcedProfile, script: string, options?: WorldOptions) {
  const prepared = await w.service().prepare(w.prepareInput(profile, options))
  if (prepared.kind !== 'run' || !prepared.sandbox) throw new Error('not prepared')
  try {
    return await port.execute({
      command: { mode: 'shell', command: script, shellProfile: 'posix-bash' },
      cwd: w.workspace,
      env: { PATH: TEST_PATH, HOME: w.home },
      timeoutMs: 20_000,
      sandbox: prepared.sandbox,
    })
  } finally {
    await prepared.release()
  }
}

describe('host Unix sockets are hidden by default; one the person allows is reachable', () => {
  it('a socket in the workspace, one in a system folder and one outside every mount: none is reachable, in either profile', async () => {
    const w = world()
    const inWorkspace = await listen(join(w.workspace, 'dev.sock'))
    const outside = await listen(join(w.outside, 'agent.sock'))
    // /opt is a system folder the sandbox mounts; a socket there is found in /proc/net/unix.
    const opt = mkdtempSync('/opt/shellgate-sock-')
    try {
      const inSystem = await listen(join(opt, 'db.sock'))
      for (const profile of ['read-only', 'workspace-write'] as const) {
        const result = await runIn(w, profile, [inWorkspace, inSystem, outside].map(connect).join('; '))
        expect(result.stdout, profile).toMatch(/^refused \d+\nrefused \d+\nrefused \d+\n$/)
      }
      // The same probe outside the sandbox connects: the test can fail.
      expect(execFileSync('bash', ['-c', connect(inSystem)], { encoding: 'utf8' })).toBe('connected\n')
    } finally {
      rmSync(opt, { recursive: true, force: true })
    }
  })

  it('an allowed socket (Settings → Sandbox → allowed sockets) is reachable from approved commands only', async () => {
    const w = world()
    const docker = await listen(join(w.outside, 'docker.sock'))
    const options = { settings: { allowedSockets: [docker] } }
    expect((await runIn(w, 'workspace-write', connect(docker), options)).stdout).toBe('connected\n')
    expect((await runIn(w, 'read-only', connect(docker), options)).stdout).toMatch(/^refused \d+\n$/)
    expect((await runIn(w, 'workspace-write', connect(docker))).stdout).toMatch(/^refused \d+\n$/)
  })

  it("Shellgate's own sockets can never be allowed, and the card warns about an allowed one", async () => {
    const w = world()
    mkdirSync(join(w.dataDir, 'run'), { recursive: true })
    const hub = await listen(join(w.dataDir, 'run', 'hub.sock'))
    const docker = await listen(join(w.outside, 'docker.sock'))
    const settings = { allowedSockets: [hub, docker] }
    expect(w.layout('workspace-write', { settings }).leftOut).toEqual(
      expect.arrayContaining([
        { path: hub, kind: 'file', why: "Shellgate's own sockets can never be allowed" },
      ]),
    )
    expect((await runIn(w, 'workspace-write', connect(hub), { settings })).stdout).toMatch(/^refused \d+\n$/)
    const card = await approvalSandbox(w.service(), SandboxSettingsSchema.parse(settings))
    expect(card.note).toBe(
      `this command can reach ${docker} (Settings → Sandbox → allowed sockets): whoever talks to a socket acts with its owner's power`,
    )
  })
})

describe('the namespaces, shown by behaviour', () => {
  it('--unshare-pid: the host processes are not there; a process started to outlive the run is gone with it', async () => {
    const w = world()
    const result = await runIn(
      w,
      'workspace-write',
      `kill -0 ${process.pid} 2>&1; echo rc=$?; ls /proc | grep -c '^[0-9]'; setsid -f sleep 311; echo started`,
    )
    expect(result.stdout).toMatch(/rc=1\n[1-9]\nstarted\n/)
    const left = execFileSync('bash', ['-c', 'pgrep -fx "sleep 311" || true'], { encoding: 'utf8' })
    expect(left).toBe('')
  })

  it('--new-session: under a terminal, the command is in a session of its own and cannot push keys into it (TIOCSTI)', () => {
    const w = world()
    const sandbox = w.base({ profile: 'read-only' })
    const inside = [
      'import fcntl,termios,os',
      'print("session", "own" if os.getsid(0) != 0 else "host")',
      'try:',
      '  fcntl.ioctl(0, termios.TIOCSTI, b"#"); print("TIOCSTI worked")',
      'except OSError as e: print("TIOCSTI refused", e.errno)',
    ].join('\n')
    const plan = wrapSpawnPlan(
      { file: '/usr/bin/python3', args: ['-c', inside], windowsVerbatimArguments: false },
      sandbox,
      { platform: 'linux', cwd: w.workspace },
    )
    accessSync(plan.file, constants.X_OK)
    // A real terminal: python's pty runs the sandbox as a terminal's foreground job, as a person's shell would.
    const output = execFileSync(
      'python3',
      ['-c', 'import pty,sys; pty.spawn(sys.argv[1:])', plan.file, ...plan.args],
      {
        encoding: 'utf8',
        env: { PATH: TEST_PATH },
      },
    )
    expect(output.replace(/\r/g, '')).toContain('session own\nTIOCSTI refused 1\n')
  })
})

describe('a hidden path that vanishes before the command starts', () => {
  it('does not fail the command: a socket and its folder gone after planning leave nothing to hide', async () => {
    const w = world()
    const readable = join(w.root, 'readable')
    mkdirSync(readable)
    const folder = mkdtempSync(join(readable, 'sock-'))
    const socket = await listen(join(folder, 'db.sock'))
    const input = w.prepareInput('workspace-write', {
      settings: { network: 'on' },
      readableFolders: [readable],
    })
    expect(
      w.layout('workspace-write', { readableFolders: [readable] }).hidden.map((entry) => entry.path),
    ).toContain(socket)
    const prepared = await w.service().prepare({
      ...input,
      // Called after the layout is planned: the socket's server stops and its folder goes, as a
      // test's or a tool's temporary socket does.
      network: async () => {
        await new Promise((done) => servers.pop()?.close(done))
        rmSync(folder, { recursive: true, force: true })
        return { rules: () => networkRuleSet([]), allowedPorts: [] }
      },
    })
    if (prepared.kind !== 'run' || !prepared.sandbox) throw new Error('not prepared')
    try {
      const result = await port.execute({
        command: { mode: 'shell', command: 'echo ran', shellProfile: 'posix-bash' },
        cwd: w.workspace,
        env: { PATH: TEST_PATH, HOME: w.home },
        timeoutMs: 20_000,
        sandbox: prepared.sandbox,
      })
      expect(result.stderr).toBe('')
      expect(result.stdout).toBe('ran\n')
    } finally {
      await prepared.release()
    }
  })
})
