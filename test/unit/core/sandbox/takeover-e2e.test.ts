import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type WebSocket from 'ws'
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../../../src/main/browser-mode/browser-sessions'
import { createExecutionPort } from '../../../../src/main/core/exec'
import type { EnforcedProfile } from '../../../../src/main/core/sandbox/types'
import { RPC_CLOSE_CODES } from '../../../../src/shared/browser-login'
import { defaultUserSettings } from '../../../../src/shared/settings'
import { logIn, openSocket, startTestServer } from '../../transports/harness'
import { waitFor } from '../workbench/core-harness'
import { type ServersPlacement, type ShellgateServers, startShellgateServers } from './shellgate-servers'

/**
 * Issue 19's critical takeover, end to end, every step on the product's own path (the core's
 * sandbox planner, the executor, real bwrap, a real hub socket and a real browser-mode server):
 * an approved command read the browser-mode key Chromium keeps on disk, connected to
 * 127.0.0.1:PORT, became the person and turned the sandbox off. Each step must fail: the key file
 * is unreadable (in the browser profile and anywhere under SHELLGATE_HOME), the port and the hub
 * socket are unreachable, SHELLGATE_HOME's settings cannot be written, and a key that did leak is
 * refused once it is old (SESSION_IDLE_MS after its page left, SESSION_ABSOLUTE_MS after the
 * login, or from an earlier run).
 */
const port = createExecutionPort()
let servers: ShellgateServers | undefined
const sockets: WebSocket[] = []
const disposers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate()
  await Promise.all(disposers.splice(0).map((dispose) => dispose()))
  await servers?.close()
  servers = undefined
})

/** Chromium's sessionStorage for the browser-mode origin, where the page keeps its key. */
const BROWSER_KEY_FILE = '.config/chromium/Default/Session Storage/000003.log'
/**
 * No Shellgate code writes a key into SHELLGATE_HOME (keys live in the hub's memory): this stands for
 * any file there, under a name no secret-file pattern matches, so only SHELLGATE_HOME's own hiding guards it.
 */
const HOME_KEY_FILE = 'browser-login.txt'

const PLACEMENTS: Record<string, ServersPlacement> = {
  'SHELLGATE_HOME at ~/.shellgate': { userHome: 'home', shellgateHome: 'home/.shellgate' },
  // A person's own choice the layout must survive: the workspace holds SHELLGATE_HOME, so the
  // workspace mount would expose it unless it is hidden on top.
  'SHELLGATE_HOME inside the workspace': { userHome: 'home', shellgateHome: 'ws/.shellgate-home' },
}

/** What the page does: log in, open its socket (a request answered), and Chromium writes the key to disk. */
async function personLogsIn(
  s: ShellgateServers,
  keyFiles: string[],
): Promise<{ key: string; page: WebSocket }> {
  const key = await logIn(s.browser)
  const page = await connectWith(s, key)
  if (page.outcome !== 'open') throw new Error(`the person's own page was refused: ${page.outcome}`)
  for (const file of keyFiles) {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, `\u0000_http://127.0.0.1:${s.browserPort}\u0000\u0001shellgate.key${key}\n`)
  }
  return { key, page: page.socket }
}

/** 'open' once a request on the socket was answered, else the close code it got. */
function connectWith(
  s: { browser: ShellgateServers['browser'] },
  key: string,
): Promise<{ outcome: 'open'; socket: WebSocket } | { outcome: number }> {
  const socket = openSocket(s.browser, { key })
  sockets.push(socket)
  return new Promise((resolve) => {
    socket.on('open', () =>
      socket.send(JSON.stringify({ kind: 'request', id: 'steal', method: 'app.about', params: {} })),
    )
    socket.once('message', () => resolve({ outcome: 'open', socket }))
    socket.on('close', (code) => resolve({ outcome: code }))
    socket.on('error', () => undefined)
  })
}

/** The attacker's script: each step prints one labelled line, so a test sees which one got through. */
function takeoverScript(s: ShellgateServers): string {
  const py = `import socket, sys
def attempt(label, family, address):
  s = socket.socket(family)
  try:
    s.connect(address); print(label, 'connected')
  except OSError as e:
    print(label, 'refused', e.errno)
attempt('hub socket:', socket.AF_UNIX, sys.argv[1])
attempt('browser port:', socket.AF_INET, ('127.0.0.1', int(sys.argv[2])))`
  const read = (label: string, path: string) =>
    `printf '${label}: '; if out=$(cat '${path}' 2>&1); then printf 'read %s\\n' "$out"; else printf '%s\\n' "$out"; fi`
  return [
    read('browser profile', join(s.userHome, BROWSER_KEY_FILE)),
    read('SHELLGATE_HOME key', join(s.home, HOME_KEY_FILE)),
    `printf 'settings write: '; if (printf '{"permissions":{"mode":"yolo"},"sandbox":{"mode":"off"}}' > '${s.home}/settings.json') 2>/dev/null; then echo written; else echo refused; fi`,
    `python3 -c "${py.replace(/"/g, '\\"')}" '${s.hubSocket}' ${s.browserPort}`,
    `printf 'browser port through the proxy: '; curl -s -o /dev/null --max-time 10 --noproxy '' -w '%{http_code}\\n' http://127.0.0.1:${s.browserPort}/`,
  ].join('\n')
}

describe('issue 19 takeover, end to end: every step fails in both profiles (real bwrap, network on)', () => {
  const cases = Object.keys(PLACEMENTS).flatMap((placement) =>
    (['read-only', 'workspace-write'] as EnforcedProfile[]).map((profile) => [placement, profile] as const),
  )
  it.each(cases)('%s, %s', async (placement, profile) => {
    servers = await startShellgateServers({}, PLACEMENTS[placement])
    const s = servers
    const { key } = await personLogsIn(s, [join(s.userHome, BROWSER_KEY_FILE), join(s.home, HOME_KEY_FILE)])
    const script = takeoverScript(s)
    const env = { PATH: '/usr/bin:/bin' }
    // Outside any sandbox every step works: the test can fail.
    const outside = await port.execute({
      command: { mode: 'shell', command: script, shellProfile: 'posix-bash' },
      cwd: s.workspace,
      env,
      timeoutMs: 20_000,
    })
    expect(outside.stdout).toContain(`browser profile: read `)
    expect(outside.stdout).toContain(`SHELLGATE_HOME key: read `)
    expect(outside.stdout).toContain(key)
    expect(outside.stdout).toContain('hub socket: connected\nbrowser port: connected\n')
    writeFileSync(join(s.home, 'settings.json'), '{}\n')

    const settings = {
      ...defaultUserSettings().sandbox,
      network: 'on' as const,
      // The person made ~/.config readable: the browser profile inside it stays hidden.
      readablePaths: ['~/.config'],
    }
    const prepared = await s.host.core.sandbox.prepare({
      settings,
      workspace: s.workspace,
      cwd: s.workspace,
      searchPath: '/usr/bin:/bin',
      readableFolders: [],
      ranWithoutAsking: profile === 'read-only',
      unsandboxedByPerson: false,
      readableFiles: [],
      writableFiles: [],
    })
    if (prepared.kind !== 'run' || !prepared.sandbox) throw new Error('expected a sandboxed run')
    expect(prepared.profile).toBe(profile)
    let inside: Awaited<ReturnType<typeof port.execute>>
    try {
      inside = await port.execute({
        command: { mode: 'shell', command: script, shellProfile: 'posix-bash' },
        cwd: s.workspace,
        env,
        timeoutMs: 20_000,
        sandbox: prepared.sandbox,
      })
    } finally {
      await prepared.release()
    }
    const said = inside.stdout + inside.stderr
    expect(said).not.toContain(key)
    expect(inside.stdout).toMatch(
      /^browser profile: cat: .*000003\.log'?: (No such file or directory|Permission denied)$/m,
    )
    expect(inside.stdout).toMatch(
      /^SHELLGATE_HOME key: cat: .*browser-login\.txt: (No such file or directory|Permission denied)$/m,
    )
    expect(inside.stdout).toContain('settings write: refused\n')
    expect(readFileSync(join(s.home, 'settings.json'), 'utf8')).toBe('{}\n')
    // ENOENT/EACCES: SHELLGATE_HOME (and its run/ folder) is not there; ECONNREFUSED: the namespace's own loopback.
    expect(inside.stdout).toMatch(/^hub socket: refused (2|13|111)$/m)
    expect(inside.stdout).toContain('browser port: refused 111\n')
    // read-only has no proxy at all; workspace-write's proxy never dials the host's loopback.
    expect(inside.stdout).toContain(
      `browser port through the proxy: ${profile === 'read-only' ? '000' : '403'}\n`,
    )
  })
})

describe('issue 19 takeover, the approved Bash call (the product path an agent takes)', () => {
  it('reading the browser profile is blocked and the model is told why; the key never reaches it', async () => {
    servers = await startShellgateServers({}, PLACEMENTS['SHELLGATE_HOME at ~/.shellgate'])
    const s = servers
    const { core } = s.host
    await core.settings.updateUser({ sandbox: { network: 'on', readablePaths: ['~/.config'] } })
    const { key } = await personLogsIn(s, [join(s.userHome, BROWSER_KEY_FILE)])
    const sessionId = core.sessions.list()[0]!.id
    const running = core.bash.run(sessionId, {
      command: `cat '${join(s.userHome, BROWSER_KEY_FILE)}' && curl -sS --max-time 5 http://127.0.0.1:${s.browserPort}/`,
    })
    const approval = await waitFor(() => core.approvals.list()[0], 'the approval card')
    await core.approvals.answer(approval.id, { kind: 'allow_once' })
    const call = await running
    expect(call).toMatchObject({ status: 'failed', sandbox: 'workspace-write' })
    expect(call.content).not.toContain(key)
    expect(call.content).toMatch(/blocked by the sandbox: ~\/\.config\/chromium is (hidden|a secret)/)
  })
})

describe('a browser-mode key that leaked anyway is refused once old (issue 19.4, on the real browser server)', () => {
  it('in use by its page, SESSION_IDLE_MS after the page left, SESSION_ABSOLUTE_MS after the login, and from an earlier run', async () => {
    let now = 1_000_000
    servers = await startShellgateServers({}, { now: () => now })
    const s = servers
    const first = await personLogsIn(s, [])
    // A copy while the page holds its socket.
    expect(await connectWith(s, first.key)).toEqual({ outcome: RPC_CLOSE_CODES.key_in_use })
    const left = new Promise<number>((resolve) => first.page.once('close', resolve))
    first.page.close()
    await left
    now += SESSION_IDLE_MS
    expect(await connectWith(s, first.key)).toEqual({ outcome: RPC_CLOSE_CODES.key_expired })

    const second = await personLogsIn(s, [])
    const ended = new Promise<number>((resolve) => second.page.once('close', resolve))
    now += SESSION_ABSOLUTE_MS
    // The copy is refused and the page itself is closed: the login is over.
    expect(await connectWith(s, second.key)).toEqual({ outcome: RPC_CLOSE_CODES.key_expired })
    expect(await ended).toBe(RPC_CLOSE_CODES.key_expired)

    // A key from an earlier run (another secret): refused as not ours.
    const earlier = await startTestServer()
    disposers.push(() => earlier.dispose())
    const oldKey = await logIn(earlier.server)
    expect(await connectWith(s, oldKey)).toEqual({ outcome: RPC_CLOSE_CODES.key_refused })
  })
})
