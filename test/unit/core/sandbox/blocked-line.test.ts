import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type BlockedLineInput, sandboxBlockedLine } from '../../../../src/main/core/sandbox/blocked-line'
import type { ExecutionSandbox } from '../../../../src/main/core/sandbox/types'

const sandbox: ExecutionSandbox = {
  profile: 'workspace-write',
  readable: [{ path: '/usr', kind: 'dir' }],
  symlinks: [],
  emptyDirs: ['/h'],
  workspace: '/w',
  writableRoots: [],
  protectedPaths: ['/w/.git/hooks'],
  reopenedPaths: [],
  hidden: [{ path: '/h/.ssh', kind: 'dir' }],
  exposed: [],
  allowedSockets: [],
  network: 'off',
}
const line = (input: Partial<BlockedLineInput> & { output: string }) =>
  sandboxBlockedLine({ sandbox, exitCode: 1, refusedHosts: [], home: '/h', ...input })
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

  it('a proxy refusal names the host and says to add the domain', () => {
    expect(
      line({
        sandbox: { ...sandbox, network: 'allowlist' },
        output: 'curl: (56) CONNECT tunnel failed, response 403',
        refusedHosts: ['evil.example', 'evil.example'],
      }),
    ).toBe(
      'blocked by the sandbox: the network allowlist refused this host (evil.example). To go further, add the domain to Settings → Sandbox → allowlist, or approve the command unsandboxed.',
    )
  })

  it('says nothing for a success, an unrelated failure, or a network error while the network is on', () => {
    expect(line({ exitCode: 0, output: 'Read-only file system' })).toBeNull()
    expect(line({ output: 'grep: no match' })).toBeNull()
    expect(line({ sandbox: { ...sandbox, network: 'on' }, output: 'Could not resolve host: x' })).toBeNull()
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
