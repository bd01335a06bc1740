import {
  closeSync,
  existsSync,
  openSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import { bwrapPlan } from '../../../../src/main/core/sandbox/bwrap.linux'
import { DEFAULT_SOCAT_PATH } from '../../../../src/main/core/sandbox/bwrap-network.linux'
import { createSandboxService, type SandboxService } from '../../../../src/main/core/sandbox/sandbox-service'
import { createSparePool } from '../../../../src/main/core/sandbox/spare-network.linux'
import { wrapSpawnPlan } from '../../../../src/main/core/sandbox/wrap-plan'
import { defaultUserSettings } from '../../../../src/shared/settings'
import { startHttpServer, type TestServer } from '../../../fixtures/network/http-server'
import { waitFor } from '../workbench/core-harness'
import { sandboxWorlds, TEST_PATH, WORKING_BACKEND } from './sandbox-fixture'

/**
 * Issue 19's bench point, its security side, in real bwrap as root: a networked command joins a
 * network namespace made ahead for it (the proxy's bridge already listening) instead of starting
 * its own bridge. It must still be a namespace of its own: not the host's, not the previous
 * command's, reaching out only through this command's proxy, and gone once the command is.
 */
const port = createExecutionPort()
const world = sandboxWorlds()
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** The test's only "public" name, mapped by the proxy's resolver to the 127.0.0.1 test server. */
const resolver = async (hostname: string) =>
  hostname === 'registry.test' ? [{ address: '127.0.0.1', family: 4 as const }] : []

const PROBE = (serverPort: number) =>
  [
    'readlink /proc/self/ns/net',
    `curl -s --max-time 10 http://registry.test:${serverPort}/ || echo "proxy: failed $?"`,
    // Direct, around the proxy: the host's loopback, where the test server listens.
    `curl -s --max-time 5 --noproxy '*' http://127.0.0.1:${serverPort}/ || echo "direct: refused $?"`,
  ].join('\n')

async function setUp(): Promise<{ service: SandboxService; server: TestServer; run: () => Promise<Run> }> {
  const w = world()
  const server = await startHttpServer((request, response) => response.end(`hello ${request.headers.host}\n`))
  cleanups.push(() => server.close())
  const service = createSandboxService({
    platform: 'linux',
    home: w.home,
    dataDir: w.dataDir,
    detect: async () => WORKING_BACKEND,
    resolver,
    admitLoopbackPorts: [server.port],
    spareNetworks: true,
  })
  cleanups.push(() => service.dispose())
  const run = async (): Promise<Run> => {
    const prepared = await service.prepare({
      settings: { ...defaultUserSettings().sandbox, network: 'on' },
      workspace: w.workspace,
      cwd: w.workspace,
      searchPath: TEST_PATH,
      readableFolders: [],
      ranWithoutAsking: false,
      unsandboxedByPerson: false,
      readableFiles: [],
      writableFiles: [],
    })
    if (prepared.kind !== 'run' || !prepared.sandbox?.egress) throw new Error('expected a networked sandbox')
    const egress = prepared.sandbox.egress
    // Hold a joined spare's namespace open for the whole test: a freed namespace's inode number is
    // handed to the next one made, so comparing numbers of namespaces already gone proves nothing.
    if (egress.namespacePath) {
      const held = openSync(egress.namespacePath, 'r')
      cleanups.push(() => closeSync(held))
    }
    const result = await port.execute({
      command: { mode: 'shell', command: PROBE(server.port), shellProfile: 'posix-bash' },
      cwd: w.workspace,
      env: { PATH: TEST_PATH },
      sandbox: prepared.sandbox,
      timeoutMs: 20_000,
    })
    await prepared.release()
    await service.sparesIdle()
    return { stdout: result.stdout, joined: egress.namespacePath ?? null, socketDir: egress.socketDir }
  }
  return { service, server, run }
}

interface Run {
  stdout: string
  joined: string | null
  socketDir: string
}

const onlyAsRoot = process.getuid?.() === 0 ? it : it.skip

describe('a networked command joins a namespace made ahead for it alone (real bwrap, as root)', () => {
  onlyAsRoot(
    'reaches out only through its proxy, never the host loopback, and never shares a namespace',
    async () => {
      const { server, run } = await setUp()
      const hostNamespace = readlinkSync('/proc/self/ns/net')
      // The first command finds no spare and bridges itself; the ones after join a spare each.
      const first = await run()
      const second = await run()
      const third = await run()
      expect(first.joined).toBeNull()
      expect(second.joined).toMatch(/^\/proc\/\d+\/fd\/\d+$/)
      expect(third.joined).toMatch(/^\/proc\/\d+\/fd\/\d+$/)
      for (const each of [first, second, third]) {
        expect(each.stdout).toContain(`hello registry.test:${server.port}\n`)
        expect(each.stdout).toMatch(/direct: refused \d+/)
        expect(each.stdout).not.toContain(hostNamespace)
        // Once the command is gone, so is its run's socket folder (the spare's included).
        expect(existsSync(each.socketDir)).toBe(false)
      }
      // The pooled spares are held open (see run), so equal numbers would be one namespace handed
      // out twice. The first command's own namespace is gone by now and its number may be reused.
      const namespaceOf = (each: Run) => each.stdout.split('\n')[0]
      expect(namespaceOf(second)).toMatch(/^net:\[\d+\]$/)
      expect(namespaceOf(third)).not.toBe(namespaceOf(second))
    },
  )

  onlyAsRoot('a spare, once used, is gone: its path replayed never enters it again', async () => {
    const { run } = await setUp()
    await run()
    const used = await run()
    expect(used.joined).not.toBeNull()
    // The same descriptor path, replayed: closed with the run (its number may since hold the next
    // spare, which is then what nsenter enters), so the used namespace is never entered again.
    const w = world()
    const replay = wrapSpawnPlan(
      { file: '/bin/sh', args: ['-c', 'readlink /proc/self/ns/net'], windowsVerbatimArguments: false },
      w.base({
        network: 'on',
        egress: { socketDir: w.outside, proxyPort: 3128, allowedPorts: [], namespacePath: used.joined! },
      }),
      { platform: 'linux', cwd: w.workspace },
    )
    const result = await port.execute({
      command: { mode: 'argv', file: replay.file, args: replay.args },
      cwd: w.workspace,
      env: { PATH: TEST_PATH },
      timeoutMs: 20_000,
    })
    const usedNamespace = used.stdout.split('\n')[0]!
    expect(usedNamespace).toMatch(/^net:\[\d+\]$/)
    expect(result.stdout).not.toContain(usedNamespace)
  })
})

describe('the command line of a command that joins a spare', () => {
  it('enters the namespace with nsenter, makes none of its own, and bridges only the allowed ports inside', () => {
    const w = world()
    const egress = { socketDir: w.outside, proxyPort: 3128, namespacePath: '/proc/1/fd/7' }
    const inner = { file: '/bin/true', args: [], windowsVerbatimArguments: false }
    const plain = bwrapPlan(
      w.base({ network: 'on', egress: { ...egress, allowedPorts: [] } }),
      inner,
      w.workspace,
    )
    expect(plain.file).toBe('/usr/bin/nsenter')
    expect(plain.args.slice(0, 3)).toEqual(['--net=/proc/1/fd/7', '--', '/usr/bin/bwrap'])
    expect(plain.args).not.toContain('--unshare-net')
    expect(plain.args.slice(plain.args.lastIndexOf('--') + 1)).toEqual(['/bin/true'])
    const ported = bwrapPlan(
      w.base({ network: 'on', egress: { ...egress, allowedPorts: [5432] } }),
      inner,
      w.workspace,
    )
    const script = ported.args[ported.args.indexOf('/bin/sh') + 2]!
    expect(script).toContain('TCP-LISTEN:5432,')
    expect(script).not.toContain('TCP-LISTEN:3128,')
  })

  it('refuses a namespace that is not a descriptor this process holds', () => {
    const w = world()
    for (const namespacePath of [
      '/proc/1/ns/net',
      '/var/run/netns/host',
      '/proc/self/fd/3/../../1/ns/net',
      // Another process's descriptor: only this process's own spares are ever joined.
      `/proc/${process.pid + 1}/fd/7`,
    ]) {
      expect(() =>
        wrapSpawnPlan(
          { file: '/bin/true', args: [], windowsVerbatimArguments: false },
          w.base({
            network: 'on',
            egress: { socketDir: w.outside, proxyPort: 3128, allowedPorts: [], namespacePath },
          }),
          { platform: 'linux', cwd: w.workspace },
        ),
      ).toThrow(/namespace this process holds/)
    }
  })
})

/** Processes whose command line names `dir` (a pool's bwrap and socat hold its socket folders). */
function processesUsing(dir: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const state = readFileSync(`/proc/${pid}/stat`, 'utf8')
        if (state.slice(state.lastIndexOf(')') + 2).startsWith('Z')) return false
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir)
      } catch {
        return false
      }
    })
    .map(Number)
}

describe('the spare pool on its own (real bwrap, as root)', () => {
  const pool = (nsenterPath: string) => {
    const baseDir = mkdtempSync(join(tmpdir(), 'sg-spares-'))
    const spares = createSparePool({
      baseDir,
      bwrapPath: '/usr/bin/bwrap',
      socatPath: DEFAULT_SOCAT_PATH,
      nsenterPath,
    })
    cleanups.push(() => {
      spares.dispose()
      rmSync(baseDir, { recursive: true, force: true })
    })
    return { spares, baseDir }
  }

  it('dispose ends a spare that is still being made, one that never listens included', {
    timeout: 20_000,
  }, async () => {
    const { baseDir } = pool('/usr/bin/nsenter')
    // A bridge that never says it listens: it would hold the pool, and the app's exit, forever.
    const hanging = join(baseDir, 'bwrap-that-hangs')
    writeFileSync(hanging, '#!/bin/sh\nexec /usr/bin/tail -f /dev/null "$0"\n', { mode: 0o755 })
    const spares = createSparePool({
      baseDir,
      bwrapPath: hanging,
      socatPath: DEFAULT_SOCAT_PATH,
      nsenterPath: '/usr/bin/nsenter',
      // Longer than this test may take: only dispose() can end it.
      makeTimeoutMs: 600_000,
    })
    spares.refill()
    await waitFor(() => processesUsing(hanging).length > 0, 'the spare being made')
    spares.dispose()
    await spares.idle()
    await waitFor(() => processesUsing(hanging).length === 0, 'the spare ended')
    expect(spares.take()).toBeNull()
  })

  onlyAsRoot(
    'dispose at any moment of the making, or with a spare given out and never released, leaves no process',
    { timeout: 60_000 },
    async () => {
      // The race this is about: bwrap's child sets its parent-death signal a moment after it is
      // cloned, so a holder killed in that moment left the namespace's first process running, alone.
      for (let round = 0; round < 24; round++) {
        const { spares, baseDir } = pool('/usr/bin/nsenter')
        spares.refill()
        // Each round ends the making one step later: before the spawn, at it, then while bwrap sets up.
        for (let step = 0; step < round % 8; step++) await new Promise((resolve) => setImmediate(resolve))
        if (round % 8 === 7) await waitFor(() => processesUsing(baseDir).length > 0, 'the spare being made')
        spares.dispose()
        await spares.idle()
        await waitFor(
          () => processesUsing(baseDir).length === 0,
          `round ${round}: every process of the spare ended`,
          5_000,
        )
      }
      // A spare a command took and whose release never came (the core disposed mid-command).
      const { spares, baseDir } = pool('/usr/bin/nsenter')
      spares.refill()
      await spares.idle()
      expect(spares.take()?.alive()).toBe(true)
      spares.dispose()
      await waitFor(() => processesUsing(baseDir).length === 0, 'the spare given out ended')
    },
  )

  onlyAsRoot(
    'where nsenter cannot join a spare, the pool turns itself off and commands bridge themselves',
    async () => {
      // /bin/false stands for an nsenter whose setns a security module refuses.
      const { spares, baseDir } = pool('/bin/false')
      spares.refill()
      await spares.idle()
      expect(spares.take()).toBeNull()
      spares.refill()
      await spares.idle()
      expect(spares.take()).toBeNull()
      await waitFor(() => processesUsing(baseDir).length === 0, 'the refused spare ended')
    },
  )

  onlyAsRoot('a pool whose nsenter joins gives out a spare it made', async () => {
    const { spares } = pool('/usr/bin/nsenter')
    spares.refill()
    await spares.idle()
    const spare = spares.take()
    expect(spare?.namespacePath).toMatch(new RegExp(`^/proc/${process.pid}/fd/\\d+$`))
    expect(spare?.alive()).toBe(true)
    spare?.discard()
  })
})
