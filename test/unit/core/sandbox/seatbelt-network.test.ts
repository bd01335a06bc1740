import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { BackendStatus } from '../../../../src/main/core/sandbox/backend-status'
import { networkRuleSet } from '../../../../src/main/core/sandbox/network-rule-set'
import { createSandboxService, type PreparedSandbox } from '../../../../src/main/core/sandbox/sandbox-service'
import { wrapSpawnPlan } from '../../../../src/main/core/sandbox/wrap-plan'
import { defaultUserSettings } from '../../../../src/shared/settings'
import { sandboxWorlds } from './sandbox-fixture'

/**
 * macOS, through the platform parameter: no network namespace, so the same proxy listens on an
 * ephemeral port of the host's loopback, and the Seatbelt profile lets the command dial exactly
 * that port and the workspace's allowed ones. The proxy itself is real and answers here.
 */
const world = sandboxWorlds()
const WORKS: BackendStatus = {
  platform: 'darwin',
  backend: 'seatbelt',
  path: '/usr/bin/sandbox-exec',
  available: true,
  profiles: { 'read-only': { ok: true, error: null }, 'workspace-write': { ok: true, error: null } },
  message: 'seatbelt works',
}
const inner = { file: '/bin/zsh', args: ['-c', 'npm test'], windowsVerbatimArguments: false }
const releases: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const release of releases.splice(0)) await release()
})

async function prepareOnDarwin(
  profile: 'read-only' | 'workspace-write',
  allowedPorts: number[],
  ownPorts: number[] = [],
) {
  const w = world()
  const service = createSandboxService({
    platform: 'darwin',
    home: w.home,
    dataDir: w.dataDir,
    detect: async () => WORKS,
    ownPorts: () => ownPorts,
  })
  const prepared = await service.prepare({
    settings: { ...defaultUserSettings().sandbox, network: 'on' },
    workspace: w.workspace,
    cwd: w.workspace,
    searchPath: '/usr/bin:/bin',
    readableFolders: [],
    ranWithoutAsking: profile === 'read-only',
    unsandboxedByPerson: false,
    readableFiles: [],
    writableFiles: [],
    network: async () => ({ rules: () => networkRuleSet([]), allowedPorts }),
  })
  if (prepared.kind !== 'run' || !prepared.sandbox) throw new Error('expected a sandboxed run')
  releases.push(prepared.release)
  return { w, prepared: prepared as Extract<PreparedSandbox, { kind: 'run' }> }
}

/** What the proxy on the host's loopback answers to a CONNECT: its own policy, as on Linux. */
function connectThrough(port: number, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`),
    )
    let answer = ''
    socket.on('data', (chunk) => {
      answer += chunk.toString()
    })
    socket.on('end', () => resolve(answer))
    socket.on('error', reject)
  })
}

describe('macOS: the Seatbelt profile follows the same network policy', () => {
  it('workspace-write, network on: only the proxy port and the allowed ports, with the proxy variables', async () => {
    const { prepared } = await prepareOnDarwin('workspace-write', [5432, 6379], [6379])
    const egress = prepared.sandbox!.egress!
    expect(egress.proxyPort).not.toBe(3128)
    // The known own port is never allowed, and the note says why.
    expect(egress.allowedPorts).toEqual([5432])
    expect(prepared.notes).toContain(
      "port 6379 is not forwarded: 127.0.0.1:6379 is Shellgate's own (its browser-mode page or another of its servers); it can never be allowed",
    )
    const plan = wrapSpawnPlan(inner, prepared.sandbox!, {
      platform: 'darwin',
      cwd: prepared.sandbox!.workspace,
    })
    const profile = plan.args[1]!
    expect(profile.split('\n').filter((line) => line.includes('network'))).toEqual([
      `(allow network-outbound (remote ip "localhost:${egress.proxyPort}"))`,
      '(allow network-outbound (remote ip "localhost:5432"))',
    ])
    expect(plan.args).toContain(`HTTPS_PROXY=http://127.0.0.1:${egress.proxyPort}`)
    expect(plan.args).toContain('NO_PROXY=localhost,127.0.0.1,::1')
    // The port in the profile is the real proxy, and it refuses loopback as on Linux.
    expect(await connectThrough(egress.proxyPort, '127.0.0.1:22')).toContain(
      'HTTP/1.1 403 Forbidden\r\nx-shellgate-sandbox: 127.0.0.1 is a loopback address',
    )
  })

  it('read-only: no proxy is started and the profile allows no network at all', async () => {
    const { prepared } = await prepareOnDarwin('read-only', [5432])
    expect(prepared.sandbox!.egress).toBeUndefined()
    const plan = wrapSpawnPlan(inner, prepared.sandbox!, {
      platform: 'darwin',
      cwd: prepared.sandbox!.workspace,
    })
    expect(plan.args[1]).not.toContain('network')
    expect(plan.args.join(' ')).not.toContain('PROXY')
  })
})
