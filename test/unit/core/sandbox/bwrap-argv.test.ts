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
  writableRoots: ['/data/shared-cache'],
  privateCaches: [{ path: '/h/.npm', source: '/h/.shellgate/sandbox-caches/k/.npm', kind: 'dir' }],
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
  network: 'off',
}
const TAIL = ['--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--setenv', 'TMPDIR', '/tmp']

describe('bwrap argv: the mount order is the security property', () => {
  it('workspace-write, network off: writable roots, then protected, then hidden, then exposed, then ro tmpfs', () => {
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
      ...['--bind', '/w', '/w', '--bind', '/data/shared-cache', '/data/shared-cache'],
      // The workspace's own cache, bound where npm looks: the person's ~/.npm is never written.
      ...['--bind', '/h/.shellgate/sandbox-caches/k/.npm', '/h/.npm'],
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
      ...['--unshare-pid', '--unshare-ipc', '--unshare-net'],
      ...TAIL,
      ...['--chdir', '/w/sub', '--', '/bin/bash', '-c', 'echo hi'],
    ])
    // Deny by default: the host's root is never bound.
    expect(plan.args.join(' ')).not.toMatch(/--(ro-)?bind \/ \//)
  })

  it('a pinned source is bound through its descriptor, handed to bwrap as 3, 4, …; the destination keeps its name', () => {
    const pinnedSources = {
      '/w': 20,
      '/w/.git/modules/lib': 21,
      '/w/.git/config': 22,
      '/data/shared-cache': 23,
      '/nix/var/profile': 24,
    }
    const plan = bwrapPlan({ ...base, pinnedSources }, inner, '/w')
    const boundAt = (dest: string) => {
      const at = plan.args.findIndex((arg, index) => arg === dest && plan.args[index - 2]?.includes('bind'))
      return plan.args.slice(at - 2, at + 1)
    }
    // In mount order: the readable entries, the workspace, the writable roots, then the layers by depth.
    expect(plan.inheritFds).toEqual([24, 20, 23, 22, 21])
    expect(boundAt('/h/.nix-profile')).toEqual(['--ro-bind-fd', '3', '/h/.nix-profile'])
    expect(boundAt('/w')).toEqual(['--bind-fd', '4', '/w'])
    expect(boundAt('/data/shared-cache')).toEqual(['--bind-fd', '5', '/data/shared-cache'])
    expect(boundAt('/w/.git/config')).toEqual(['--ro-bind-fd', '6', '/w/.git/config'])
    expect(boundAt('/w/.git/modules/lib')).toEqual(['--bind-fd', '7', '/w/.git/modules/lib'])
    // Nothing pinned is bound by its name any more; what is not pinned still is.
    const byName = plan.args.filter((_, index) =>
      ['--bind', '--ro-bind'].includes(plan.args[index - 1] ?? ''),
    )
    for (const path of Object.keys(pinnedSources)) expect(byName).not.toContain(path)
    expect(boundAt('/usr')).toEqual(['--ro-bind', '/usr', '/usr'])
    expect(bwrapPlan(base, inner, '/w').inheritFds).toBeUndefined()
  })

  it('read-only: the workspace is read-only, no caches, no protected re-mounts, always its own network', () => {
    const plan = bwrapPlan({ ...base, profile: 'read-only', network: 'on' }, inner, '/w')
    const at = plan.args.indexOf('/w')
    expect(plan.args.slice(at - 1, at + 2)).toEqual(['--ro-bind', '/w', '/w'])
    expect(plan.args).not.toContain('/h/.npm')
    expect(plan.args).not.toContain('/data/shared-cache')
    expect(plan.args).not.toContain('/w/.git/modules')
    // An allowed socket is for approved commands only.
    expect(plan.args).not.toContain('/run/docker.sock')
    expect(plan.args).toContain('--unshare-net')
  })

  it('every network setting gets its own namespace; on and allowlist bind the socket folder, set the proxy env and bridge', () => {
    const egress = { socketDir: '/h/.shellgate/sandbox/net-1', proxyPort: 3128, allowedPorts: [5432] }
    for (const network of ['off', 'on', 'allowlist'] as const) {
      const args = bwrapPlan({ ...base, network, egress }, inner, '/w').args
      expect(args.filter((arg) => arg === '--unshare-net')).toHaveLength(1)
      expect(args.includes('/tmp/.shellgate-net')).toBe(network !== 'off')
    }
    for (const network of ['on', 'allowlist'] as const) {
      const args = bwrapPlan({ ...base, network, egress }, inner, '/w').args
      const at = args.indexOf('/tmp/.shellgate-net')
      // Read-only: the command can connect to the sockets, never replace them.
      expect(args.slice(at - 2, at + 1)).toEqual(['--ro-bind', egress.socketDir, '/tmp/.shellgate-net'])
      // After the private /tmp (step 2), or it would hide the folder.
      expect(at).toBeGreaterThan(args.indexOf('/tmp'))
      const env = args.join(' ')
      for (const name of [
        'HTTP_PROXY',
        'HTTPS_PROXY',
        'https_proxy',
        'npm_config_https_proxy',
        'PIP_PROXY',
      ]) {
        expect(env).toContain(`--setenv ${name} http://127.0.0.1:3128`)
      }
      expect(env).toContain('--setenv NO_PROXY localhost,127.0.0.1,::1')
      const after = args.slice(args.indexOf('--') + 1)
      expect(after.slice(0, 2)).toEqual(['/bin/sh', '-c'])
      expect(after[2]).toContain(
        '/usr/bin/socat -d -d TCP-LISTEN:3128,bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:/tmp/.shellgate-net/proxy.sock 2>/tmp/.shellgate-bridge &',
      )
      expect(after[2]).toContain(
        '/usr/bin/socat -d -d TCP-LISTEN:5432,bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:/tmp/.shellgate-net/port-5432.sock 2>/tmp/.shellgate-bridge &',
      )
      // The command starts once both have said they listen.
      expect(after[2]).toContain('while [ "$n" -lt 2 ]; do')
      expect(after.slice(3)).toEqual(['shellgate-bridge', '/bin/bash', '-c', 'echo hi'])
    }
  })

  it('read-only never gets the folder, the proxy env or a bridge, whatever the setting', () => {
    const egress = { socketDir: '/h/n', proxyPort: 3128, allowedPorts: [5432] }
    const args = bwrapPlan({ ...base, profile: 'read-only', network: 'on', egress }, inner, '/w').args
    expect(args).not.toContain('/h/n')
    expect(args.join(' ')).not.toContain('PROXY')
    expect(args.slice(args.indexOf('--') + 1)).toEqual(['/bin/bash', '-c', 'echo hi'])
  })

  it('a network without the host proxy is refused rather than run with a route that cannot be enforced', () => {
    expect(() => bwrapPlan({ ...base, network: 'allowlist' }, inner, '/w')).toThrow(/host proxy/)
    expect(() => bwrapPlan({ ...base, network: 'on' }, inner, '/w')).toThrow(/host proxy/)
  })
})
