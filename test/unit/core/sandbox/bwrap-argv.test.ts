import { describe, expect, it } from 'vitest'
import { bwrapPlan } from '../../../../src/main/core/sandbox/bwrap.linux'
import type { ExecutionSandbox } from '../../../../src/main/core/sandbox/types'

const inner = { file: '/bin/bash', args: ['-c', 'echo hi'], windowsVerbatimArguments: false }
const base: ExecutionSandbox = {
  profile: 'workspace-write',
  workspace: '/w',
  writableRoots: ['/h/.npm'],
  protectedPaths: ['/w/.git/hooks', '/w/.git/config', '/w/.shellgate'],
  hidden: [
    { path: '/h/.ssh', kind: 'dir' },
    { path: '/h/.netrc', kind: 'file' },
    { path: '/h/.shellgate', kind: 'dir' },
  ],
  emptyFile: '/h/.shellgate/sandbox/empty',
  exposed: [
    { path: '/h/.shellgate/snap.sh', writable: false },
    { path: '/h/.shellgate/exec/cwd/c1', writable: true },
  ],
  network: 'on',
}
const TAIL = ['--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--setenv', 'TMPDIR', '/tmp']

describe('bwrap argv: the mount order is the security property', () => {
  it('workspace-write, network on: writable roots, then protected, then hidden, then exposed, then ro tmpfs', () => {
    const plan = bwrapPlan(base, inner, '/w/sub')
    expect(plan.file).toBe('/usr/bin/bwrap')
    expect(plan.args).toEqual([
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      '--bind',
      '/w',
      '/w',
      '--bind',
      '/h/.npm',
      '/h/.npm',
      '--ro-bind',
      '/w/.git/hooks',
      '/w/.git/hooks',
      '--ro-bind',
      '/w/.git/config',
      '/w/.git/config',
      '--ro-bind',
      '/w/.shellgate',
      '/w/.shellgate',
      '--tmpfs',
      '/h/.ssh',
      '--ro-bind',
      '/h/.shellgate/sandbox/empty',
      '/h/.netrc',
      '--tmpfs',
      '/h/.shellgate',
      '--ro-bind',
      '/h/.shellgate/snap.sh',
      '/h/.shellgate/snap.sh',
      '--bind',
      '/h/.shellgate/exec/cwd/c1',
      '/h/.shellgate/exec/cwd/c1',
      '--remount-ro',
      '/h/.ssh',
      '--remount-ro',
      '/h/.shellgate',
      '--unshare-pid',
      '--unshare-ipc',
      ...TAIL,
      '--chdir',
      '/w/sub',
      '--',
      '/bin/bash',
      '-c',
      'echo hi',
    ])
  })

  it('read-only: the workspace is read-only, no caches, no protected re-mounts, always its own network', () => {
    const plan = bwrapPlan({ ...base, profile: 'read-only', network: 'on' }, inner, '/w')
    expect(plan.args.slice(0, 12)).toEqual([
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      '--ro-bind',
      '/w',
      '/w',
    ])
    expect(plan.args).not.toContain('/h/.npm')
    expect(plan.args).not.toContain('/w/.git/hooks')
    expect(plan.args).toContain('--unshare-net')
  })

  it('network off adds its own namespace; allowlist binds the proxy socket, sets the proxy env and bridges', () => {
    expect(bwrapPlan({ ...base, network: 'off' }, inner, '/w').args).toContain('--unshare-net')
    expect(bwrapPlan(base, inner, '/w').args).not.toContain('--unshare-net')
    const plan = bwrapPlan(
      { ...base, network: 'allowlist', proxy: { socketPath: '/h/p.sock', port: 3128 } },
      inner,
      '/w',
    )
    const args = plan.args
    expect(args.slice(args.indexOf('/h/p.sock') - 1, args.indexOf('/h/p.sock') + 2)).toEqual([
      '--bind',
      '/h/p.sock',
      '/tmp/.shellgate-proxy.sock',
    ])
    expect(args).toContain('--unshare-net')
    expect(args.join(' ')).toContain('--setenv HTTPS_PROXY http://127.0.0.1:3128')
    expect(args.join(' ')).toContain('--unsetenv NO_PROXY')
    const after = args.slice(args.indexOf('--') + 1)
    expect(after.slice(0, 2)).toEqual(['/bin/sh', '-c'])
    expect(after[2]).toContain('TCP-LISTEN:3128,bind=127.0.0.1')
    expect(after[2]).toContain('0100007F:0C38 00000000:0000 0A')
    expect(after.slice(3)).toEqual(['shellgate-bridge', '/bin/bash', '-c', 'echo hi'])
  })

  it('allowlist without a proxy is refused rather than run with the network open', () => {
    expect(() => bwrapPlan({ ...base, network: 'allowlist' }, inner, '/w')).toThrow(/host proxy/)
  })
})

describe('bwrap argv: a cwd in the host /tmp outside the workspace', () => {
  it('is re-bound read-only right after the private /tmp, so the command can start there', () => {
    const args = bwrapPlan(base, inner, '/tmp/elsewhere').args
    const at = args.indexOf('/tmp/elsewhere')
    expect(args.slice(at - 1, at + 2)).toEqual(['--ro-bind', '/tmp/elsewhere', '/tmp/elsewhere'])
    expect(at).toBeGreaterThan(args.indexOf('/w'))
    expect(bwrapPlan(base, inner, '/w/sub').args.filter((arg) => arg.startsWith('/tmp/'))).toEqual([])
  })
})
