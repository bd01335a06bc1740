import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type BlockedLineInput, sandboxBlockedLine } from '../../../../src/main/core/sandbox/blocked-line'
import type { EgressDecision } from '../../../../src/main/core/sandbox/egress-policy'
import type { ExecutionSandbox } from '../../../../src/main/core/sandbox/types'

const sandbox: ExecutionSandbox = {
  profile: 'workspace-write',
  readable: [{ path: '/usr', kind: 'dir' }],
  symlinks: [],
  emptyDirs: ['/h'],
  workspace: '/w',
  writableRoots: [],
  privateCaches: [],
  protectedPaths: ['/w/.git/hooks'],
  reopenedPaths: [],
  hidden: [{ path: '/h/.ssh', kind: 'dir' }],
  exposed: [],
  allowedSockets: [],
  network: 'off',
}
const line = (input: Partial<BlockedLineInput> & { output: string }) =>
  sandboxBlockedLine({ sandbox, exitCode: 1, refused: [], home: '/h', ...input })
const egress = { socketDir: '/h/n', proxyPort: 3128, allowedPorts: [] }
const FURTHER = 'To go further, approve the command unsandboxed.'

describe('the one plain line for a command the sandbox stopped', () => {
  it.each([
    [
      "touch: cannot touch '/etc/x': Read-only file system",
      `blocked by the sandbox: write outside the workspace (/etc/x). ${FURTHER}`,
    ],
    [
      'bash: /etc/x: Read-only file system',
      `blocked by the sandbox: write outside the workspace (/etc/x). ${FURTHER}`,
    ],
    [
      "cp: cannot create regular file '/w/.git/hooks/pre-commit': Read-only file system",
      `blocked by the sandbox: /w/.git/hooks/pre-commit stays read-only even inside the workspace. ${FURTHER}`,
    ],
    [
      "mkdir: cannot create directory '/h/.ssh/x': Read-only file system",
      `blocked by the sandbox: ~/.ssh/x is hidden from sandboxed commands. ${FURTHER}`,
    ],
    [
      'cat: /h/.ssh/id_rsa: No such file or directory',
      `blocked by the sandbox: ~/.ssh is hidden from sandboxed commands. ${FURTHER}`,
    ],
    [
      'curl: (6) Could not resolve host: example.com',
      'blocked by the sandbox: the network is off for this command (Settings → Sandbox → network is off). To go further, approve the command unsandboxed, or set the sandbox network to on or allowlist.',
    ],
    [
      'connect: Network is unreachable',
      'blocked by the sandbox: the network is off for this command (Settings → Sandbox → network is off). To go further, approve the command unsandboxed, or set the sandbox network to on or allowlist.',
    ],
  ])('%s', (output, expected) => expect(line({ output })).toBe(expected))

  it('read-only profile: says the command ran without asking', () => {
    expect(
      line({
        sandbox: { ...sandbox, profile: 'read-only' },
        output: "sed: couldn't open temporary file /w/sedX: Read-only file system",
      }),
    ).toBe(
      'blocked by the sandbox: this command ran without asking, in the read-only profile, so it cannot write (/w/sedX). To go further, the person can add an ask rule for it (Settings → Permissions) and approve it, in its sandbox or unsandboxed.',
    )
  })

  it('a proxy refusal names the host, the reason and the way on', () => {
    const refused = (over: Partial<EgressDecision>): EgressDecision => ({
      at: '2025-01-01T00:00:00.000Z',
      method: 'CONNECT',
      host: 'evil.example',
      port: 443,
      allowed: false,
      reason:
        'evil.example is not on the network allowlist, and no one can be asked here (Shellgate is not running)',
      decidedBy: 'network_policy',
      rule: null,
      ruleFile: null,
      approvedBy: null,
      ...over,
    })
    const withNet = { ...sandbox, network: 'allowlist' as const, egress }
    expect(
      line({
        sandbox: withNet,
        output: 'curl: (56) CONNECT tunnel failed, response 403',
        refused: [refused({}), refused({}), refused({ host: 'b.example' })],
      }),
    ).toBe(
      'blocked by the sandbox: the network proxy refused evil.example:443: evil.example is not on the network allowlist, and no one can be asked here (Shellgate is not running) (also refused: b.example:443). To go further, add the domain to Settings → Sandbox → allowlist, or approve the command unsandboxed.',
    )
    expect(
      line({
        sandbox: withNet,
        output: '',
        refused: [refused({ decidedBy: 'approval_timeout', reason: 'no one answered within 60 s' })],
      }),
    ).toBe(
      'blocked by the sandbox: the network proxy refused evil.example:443: no one answered within 60 s. To go further, run the command again and allow the domain on its card, add it to Settings → Sandbox → allowlist, or approve the command unsandboxed.',
    )
    expect(
      line({
        sandbox: withNet,
        output: '',
        refused: [
          refused({ host: 'db.test', reason: '"db.test" resolves to 127.0.0.1 is a loopback address' }),
        ],
      }),
    ).toMatch(/Settings → Sandbox → Allowed ports \(this workspace\); the proxy never reaches loopback/)
  })

  it('network on: a tool that ignored the proxy, and a loopback port that is not allowed, each say so', () => {
    const on = { ...sandbox, network: 'on' as const, egress }
    expect(line({ sandbox: on, output: 'getaddrinfo ENOTFOUND registry.example' })).toBe(
      "blocked by the sandbox: this command tried to reach the network directly, but a sandboxed command reaches it only through Shellgate's proxy (HTTPS_PROXY=http://127.0.0.1:3128), which this tool did not use. To go further, set the tool's proxy to that address, or approve the command unsandboxed.",
    )
    for (const output of [
      "curl: (7) Failed to connect to 127.0.0.1 port 5432 after 0 ms: Couldn't connect to server",
      'Error: connect ECONNREFUSED 127.0.0.1:5432',
      'psql: error: connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused',
    ]) {
      expect(line({ sandbox: on, output })).toBe(
        "blocked by the sandbox: the host's 127.0.0.1:5432 is not reachable from sandboxed commands; only the ports allowed for this workspace are. To go further, allow the port in Settings → Sandbox → Allowed ports (this workspace), or approve the command unsandboxed.",
      )
    }
  })

  it('says nothing for a success or an unrelated failure', () => {
    expect(line({ exitCode: 0, output: 'Read-only file system' })).toBeNull()
    expect(line({ output: 'grep: no match' })).toBeNull()
    expect(
      line({ sandbox: { ...sandbox, network: 'on', egress }, output: 'HTTP 404 from the registry' }),
    ).toBeNull()
  })

  it('reads denied by default: a folder that is not mounted, a home secret, a redirect into an unmounted folder', () => {
    const outside = mkdtempSync(join('/var/tmp', 'shellgate-blocked-'))
    try {
      writeFileSync(join(outside, 'notes.txt'), 'x\n')
      expect(line({ output: `cat: ${outside}/notes.txt: No such file or directory` })).toBe(
        `blocked by the sandbox: ${outside}/notes.txt is not mounted (reads are denied by default outside the workspace, the system folders, the toolchains on PATH and the folders added in Settings → Sandbox → readable folders). To go further, add its folder there, or approve the command unsandboxed.`,
      )
      expect(line({ output: `/bin/bash: line 1: ${outside}/new.txt: No such file or directory` })).toBe(
        `blocked by the sandbox: write outside the workspace (${outside}/new.txt). ${FURTHER}`,
      )
      // A file that does not exist on the host either is an ordinary failure, not the sandbox's.
      expect(line({ output: `cat: ${outside}/missing.txt: No such file or directory` })).toBeNull()
    } finally {
      rmSync(outside, { recursive: true, force: true })
    }
    expect(line({ output: 'cat: /h/.git-credentials: No such file or directory' })).toBe(
      `blocked by the sandbox: ~/.git-credentials is a secret, never mounted in the sandbox. ${FURTHER}`,
    )
  })

  it('a hidden file named as the command printed it (relative to the workspace) is said even when the command exited 0', () => {
    const hidden = { ...sandbox, hidden: [{ path: '/w/apps/.env', kind: 'file' as const }] }
    expect(
      line({ sandbox: hidden, exitCode: 0, output: 'grep: ./apps/.env: Permission denied\nsrc/a.ts:KEY' }),
    ).toBe(`blocked by the sandbox: /w/apps/.env is hidden from sandboxed commands. ${FURTHER}`)
  })
})
