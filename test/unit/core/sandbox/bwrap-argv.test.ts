import { describe, expect, it } from 'vitest'
import { bwrapPlan } from '../../../../src/main/core/sandbox/bwrap.linux'
import type { ExecutionSandbox } from '../../../../src/main/core/sandbox/types'

const inner = { file: '/bin/bash', args: ['-c', 'echo hi'], windowsVerbatimArguments: false }
const base: ExecutionSandbox = {
  profile: 'workspace-write',
  readable: [
    { path: '/usr', kind: 'dir' },
    { path: '/h/.cargo/bin', kind: 'dir' },
    { path: '/etc', kind: 'dir' },
    { path: '/h/.gitconfig', kind: 'file' },
    { path: '/h/.nix-profile', source: '/nix/var/profile', kind: 'dir' },
  ],
  symlinks: [{ path: '/bin', target: 'usr/bin' }],
  emptyDirs: ['/h'],
  workspace: '/w',
  writableRoots: ['/h/.npm'],
  protectedPaths: ['/w/.git/modules', '/w/.git/config', '/w/.shellgate', '/w/.git/modules/lib/hooks'],
  reopenedPaths: ['/w/.git/modules/lib'],
  hidden: [
    { path: '/h/.ssh', kind: 'dir' },
    { path: '/etc/shadow', kind: 'file' },
    { path: '/etc/gitconfig', kind: 'file', readsEmpty: true },
  ],
  emptyFile: '/h/.shellgate/sandbox/hidden-file',
  blankFile: '/h/.shellgate/sandbox/blank-file',
  exposed: [
    { path: '/h/.shellgate/snap.sh', writable: false },
    { path: '/h/.shellgate/exec/cwd/c1', writable: true },
  ],
  allowedSockets: ['/run/docker.sock'],
  network: 'on',
}
const TAIL = ['--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--setenv', 'TMPDIR', '/tmp']

describe('bwrap argv: the mount order is the security property', () => {
  it('workspace-write, network on: writable roots, then protected, then hidden, then exposed, then ro tmpfs', () => {
    const plan = bwrapPlan(base, inner, '/w/sub')
    expect(plan.file).toBe('/usr/bin/bwrap')
    expect(plan.args).toEqual([
      ...['--symlink', 'usr/bin', '/bin'],
      ...['--dev', '/dev', '--proc', '/proc'],
      ...['--tmpfs', '/tmp', '--tmpfs', '/h'],
      // Shallowest first: /usr and /etc before the files and folders inside the home tmpfs.
      ...['--ro-bind', '/usr', '/usr', '--ro-bind', '/etc', '/etc'],
      ...['--ro-bind', '/h/.gitconfig', '/h/.gitconfig', '--ro-bind', '/nix/var/profile', '/h/.nix-profile'],
      ...['--ro-bind', '/h/.cargo/bin', '/h/.cargo/bin'],
      ...['--bind', '/w', '/w', '--bind', '/h/.npm', '/h/.npm'],
      // modules/ read-only, an existing submodule's git dir writable again, its hooks read-only again.
      ...['--ro-bind', '/w/.shellgate', '/w/.shellgate'],
      ...['--ro-bind', '/w/.git/modules', '/w/.git/modules', '--ro-bind', '/w/.git/config', '/w/.git/config'],
      ...['--bind', '/w/.git/modules/lib', '/w/.git/modules/lib'],
      ...['--ro-bind', '/w/.git/modules/lib/hooks', '/w/.git/modules/lib/hooks'],
      ...['--perms', '0111', '--tmpfs', '/h/.ssh'],
      ...['--ro-bind', '/h/.shellgate/sandbox/hidden-file', '/etc/shadow'],
      ...['--ro-bind', '/h/.shellgate/sandbox/blank-file', '/etc/gitconfig'],
      ...['--ro-bind', '/h/.shellgate/snap.sh', '/h/.shellgate/snap.sh'],
      ...['--bind', '/h/.shellgate/exec/cwd/c1', '/h/.shellgate/exec/cwd/c1'],
      ...['--remount-ro', '/h/.ssh'],
      ...['--ro-bind', '/run/docker.sock', '/run/docker.sock'],
      ...['--remount-ro', '/'],
      ...['--unshare-pid', '--unshare-ipc'],
      ...TAIL,
      ...['--chdir', '/w/sub', '--', '/bin/bash', '-c', 'echo hi'],
    ])
    // Deny by default: the host's root is never bound.
    expect(plan.args.join(' ')).not.toMatch(/--(ro-)?bind \/ \//)
  })

  it('read-only: the workspace is read-only, no caches, no protected re-mounts, always its own network', () => {
    const plan = bwrapPlan({ ...base, profile: 'read-only', network: 'on' }, inner, '/w')
    const at = plan.args.indexOf('/w')
    expect(plan.args.slice(at - 1, at + 2)).toEqual(['--ro-bind', '/w', '/w'])
    expect(plan.args).not.toContain('/h/.npm')
    expect(plan.args).not.toContain('/w/.git/modules')
    // An allowed socket is for approved commands only.
    expect(plan.args).not.toContain('/run/docker.sock')
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
