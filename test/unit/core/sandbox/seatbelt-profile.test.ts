import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandboxOf } from '../../../../src/main/core/sandbox/layout-sandbox'
import { planLayout } from '../../../../src/main/core/sandbox/sandbox-layout'
import { seatbeltPlan, seatbeltProfile } from '../../../../src/main/core/sandbox/seatbelt.darwin'
import type { ExecutionSandbox } from '../../../../src/main/core/sandbox/types'
import { wrapSpawnPlan } from '../../../../src/main/core/sandbox/wrap-plan'
import { SandboxSettingsSchema } from '../../../../src/shared/settings'
import { sandboxWorlds } from './sandbox-fixture'

const base: ExecutionSandbox = {
  profile: 'workspace-write',
  readable: [
    { path: '/usr', kind: 'dir' },
    { path: '/Users/me/.gitconfig', kind: 'file' },
    { path: '/private/etc', kind: 'dir' },
    { path: '/Users/me/.nix-profile', source: '/nix/var/profile', kind: 'dir' },
  ],
  symlinks: [],
  emptyDirs: [],
  workspace: '/Users/me/ws',
  writableRoots: ['/Users/me/.npm'],
  privateCaches: [],
  protectedPaths: [
    '/Users/me/ws/.git/modules',
    '/Users/me/ws/.shellgate',
    '/Users/me/ws/.git/modules/lib/hooks',
  ],
  reopenedPaths: ['/Users/me/ws/.git/modules/lib'],
  hidden: [
    { path: '/Users/me/ws/.env', kind: 'file' },
    { path: '/private/etc/sudoers.d', kind: 'dir' },
  ],
  exposed: [{ path: '/Users/me/.shellgate/exec/cwd/c1', writable: true }],
  allowedSockets: ['/Users/me/.docker/run/docker.sock'],
  network: 'off',
  privateTmp: '/private/var/folders/xy/T/shellgate-tmp-1',
}
const inner = { file: '/bin/zsh', args: ['-c', 'ls'], windowsVerbatimArguments: false }

describe('Seatbelt profile text (macOS, tested through the platform parameter)', () => {
  it('workspace-write: reads denied by default, the same lists as bwrap, shallowest first, last rule wins', () => {
    expect(seatbeltProfile(base, base.privateTmp!)).toBe(
      [
        '(version 1)',
        '(deny default)',
        '(allow process-exec process-fork)',
        '(allow signal (target same-sandbox))',
        '(allow sysctl-read mach-lookup ipc-posix-shm)',
        '(allow file-read-metadata)',
        '(allow file-read* file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper") (subpath "/dev/fd"))',
        '(allow file-read* (literal "/dev/random") (literal "/dev/urandom"))',
        '(allow file-read* file-write* (subpath "/private/var/folders/xy/T/shellgate-tmp-1"))',
        '(allow file-read* (subpath "/usr"))',
        '(allow file-read* (subpath "/private/etc"))',
        '(allow file-read* (literal "/Users/me/.gitconfig"))',
        '(allow file-read* (subpath "/Users/me/.nix-profile") (subpath "/nix/var/profile"))',
        '(allow file-read* (subpath "/Users/me/ws"))',
        '(allow file-write* (subpath "/Users/me/ws") (subpath "/Users/me/.npm"))',
        '(deny file-write* (subpath "/Users/me/ws/.shellgate"))',
        '(deny file-write* (subpath "/Users/me/ws/.git/modules"))',
        '(allow file-write* (subpath "/Users/me/ws/.git/modules/lib"))',
        '(deny file-write* (subpath "/Users/me/ws/.git/modules/lib/hooks"))',
        '(deny file-read* file-write* (literal "/Users/me/ws/.env"))',
        '(deny file-read* file-write* (subpath "/private/etc/sudoers.d"))',
        '(allow file-read* (literal "/Users/me/.shellgate/exec/cwd/c1"))',
        '(allow file-write* (literal "/Users/me/.shellgate/exec/cwd/c1"))',
        // socket(2) itself: without it an allowed socket could not even be created with the network off.
        '(allow system-socket)',
        '(allow network-outbound (remote unix-socket (path-literal "/Users/me/.docker/run/docker.sock")))',
        '',
      ].join('\n'),
    )
  })

  it('nothing of the home folder is readable unless listed: no rule covers /Users/me itself', () => {
    const text = seatbeltProfile(base, base.privateTmp!)
    expect(text).not.toContain('(allow file-read*)\n')
    expect(text).not.toMatch(/\(subpath "\/Users\/me"\)/)
    expect(text).not.toMatch(/\(subpath "\/"\)/)
  })

  it('read-only: no writable roots and no network even when the setting says on', () => {
    const text = seatbeltProfile({ ...base, profile: 'read-only', network: 'on' }, '/t')
    expect(text).toContain('(allow file-read* (subpath "/Users/me/ws"))')
    expect(text).not.toContain('file-write* (subpath "/Users/me/ws")')
    expect(text).not.toContain('/Users/me/.npm')
    expect(text).not.toContain('network')
  })

  it('no network namespace on macOS: on and allowlist may dial only the proxy and the allowed ports, never network*', () => {
    const egress = { socketDir: '', proxyPort: 50123, allowedPorts: [5432, 6379] }
    for (const network of ['on', 'allowlist'] as const) {
      const text = seatbeltProfile({ ...base, network, egress }, '/t')
      expect(text.split('\n').filter((line) => line.includes('remote ip'))).toEqual([
        '(allow network-outbound (remote ip "localhost:50123"))',
        '(allow network-outbound (remote ip "localhost:5432"))',
        '(allow network-outbound (remote ip "localhost:6379"))',
      ])
      expect(text).toContain('(allow system-socket)')
      expect(text).not.toContain('(allow network*)')
      expect(text).not.toContain('network-bind')
    }
    expect(seatbeltProfile({ ...base, network: 'off', egress }, '/t')).not.toContain('remote ip')
    expect(seatbeltProfile({ ...base, profile: 'read-only', network: 'on', egress }, '/t')).not.toContain(
      'network',
    )
  })

  it('a command with a network gets the proxy variables every tool reads, naming the host proxy port', () => {
    const egress = { socketDir: '', proxyPort: 50123, allowedPorts: [] }
    const plan = seatbeltPlan({ ...base, network: 'on', egress }, inner, '/t')
    const env = plan.args.slice(plan.args.indexOf('/usr/bin/env') + 1, plan.args.indexOf('/bin/zsh'))
    expect(env).toEqual([
      'TMPDIR=/t',
      'HTTP_PROXY=http://127.0.0.1:50123',
      'HTTPS_PROXY=http://127.0.0.1:50123',
      'ALL_PROXY=http://127.0.0.1:50123',
      'http_proxy=http://127.0.0.1:50123',
      'https_proxy=http://127.0.0.1:50123',
      'all_proxy=http://127.0.0.1:50123',
      'npm_config_proxy=http://127.0.0.1:50123',
      'npm_config_https_proxy=http://127.0.0.1:50123',
      'PIP_PROXY=http://127.0.0.1:50123',
      'YARN_HTTP_PROXY=http://127.0.0.1:50123',
      'YARN_HTTPS_PROXY=http://127.0.0.1:50123',
      'NO_PROXY=localhost,127.0.0.1,::1',
      'no_proxy=localhost,127.0.0.1,::1',
      'npm_config_noproxy=localhost,127.0.0.1,::1',
    ])
    expect(() => seatbeltPlan({ ...base, network: 'on' }, inner, '/t')).toThrow(/host proxy/)
  })

  it('quotes a path with a double quote or backslash so it cannot end the string', () => {
    const text = seatbeltProfile({ ...base, workspace: '/Users/me/a"b\\c' }, '/t')
    expect(text).toContain('(subpath "/Users/me/a\\"b\\\\c")')
  })

  it('the facade runs /usr/bin/sandbox-exec -p with the profile and a private TMPDIR', () => {
    const plan = wrapSpawnPlan(inner, base, { platform: 'darwin', cwd: '/Users/me/ws' })
    expect(plan).toEqual(seatbeltPlan(base, inner, base.privateTmp!))
    expect(plan.file).toBe('/usr/bin/sandbox-exec')
    expect(plan.args.slice(0, 1)).toEqual(['-p'])
    expect(plan.args.slice(2)).toEqual([
      '--',
      '/usr/bin/env',
      'TMPDIR=/private/var/folders/xy/T/shellgate-tmp-1',
      '/bin/zsh',
      '-c',
      'ls',
    ])
  })

  it('Windows has no backend: the facade refuses, plainly', () => {
    expect(() => wrapSpawnPlan(inner, base, { platform: 'win32', cwd: 'C:\\ws' })).toThrow(
      'no sandbox: Windows has no backend in Shellgate; commands run unsandboxed',
    )
  })
})

describe('macOS through the platform parameter: the planner gives Seatbelt the same deny-by-default lists', () => {
  const world = sandboxWorlds()

  it('no home tmpfs, no blanket read; the workspace, the system folders that exist and the secrets inside them', () => {
    const w = world()
    writeFileSync(join(w.workspace, '.env'), 'KEY=1\n')
    const layout = planLayout({
      platform: 'darwin',
      profile: 'read-only',
      home: w.home,
      dataDir: w.dataDir,
      workspace: w.workspace,
      cwd: w.workspace,
      searchPath: '/usr/bin:/bin',
      settings: SandboxSettingsSchema.parse({}),
      readableFolders: [],
      create: false,
      listeningSockets: [],
    })
    expect(layout.emptyDirs).toEqual([])
    expect(layout.symlinks).toEqual([])
    const sandbox = sandboxOf(layout, { exposed: [], network: 'off' })
    const plan = wrapSpawnPlan(
      inner,
      { ...sandbox, privateTmp: '/private/tmp/sg-1' },
      { platform: 'darwin', cwd: w.workspace },
    )
    const text = plan.args[1]!
    expect(text).toContain('(allow file-read* (subpath "/usr"))')
    expect(text).toContain(`(allow file-read* (subpath "${w.workspace}"))`)
    expect(text).toContain(`(deny file-read* file-write* (literal "${join(w.workspace, '.env')}"))`)
    expect(text).not.toMatch(/\(allow file-read\*\)|\(subpath "\/"\)/)
    // The home folder is not readable at all: no rule names it or anything in it but the allow list.
    expect(text).not.toContain(`(subpath "${w.home}")`)
  })
})
