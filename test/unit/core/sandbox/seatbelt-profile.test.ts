import { describe, expect, it } from 'vitest'
import { seatbeltPlan, seatbeltProfile } from '../../../../src/main/core/sandbox/seatbelt.darwin'
import type { ExecutionSandbox } from '../../../../src/main/core/sandbox/types'
import { wrapSpawnPlan } from '../../../../src/main/core/sandbox/wrap-plan'

const base: ExecutionSandbox = {
  profile: 'workspace-write',
  workspace: '/Users/me/ws',
  writableRoots: ['/Users/me/.npm'],
  protectedPaths: ['/Users/me/ws/.git/hooks', '/Users/me/ws/.shellgate'],
  hidden: [
    { path: '/Users/me/.ssh', kind: 'dir' },
    { path: '/Users/me/.netrc', kind: 'file' },
  ],
  exposed: [{ path: '/Users/me/.shellgate/exec/cwd/c1', writable: true }],
  network: 'off',
  privateTmp: '/private/var/folders/xy/T/shellgate-tmp-1',
}
const inner = { file: '/bin/zsh', args: ['-c', 'ls'], windowsVerbatimArguments: false }

describe('Seatbelt profile text (macOS, tested through the platform parameter)', () => {
  it('workspace-write: deny by default, writes to the roots, protected paths and secrets taken back, last rule wins', () => {
    expect(seatbeltProfile(base, base.privateTmp!)).toBe(
      [
        '(version 1)',
        '(deny default)',
        '(allow process-exec process-fork)',
        '(allow signal (target same-sandbox))',
        '(allow sysctl-read mach-lookup ipc-posix-shm)',
        '(allow file-read*)',
        '(allow file-write* (literal "/dev/null") (subpath "/private/var/folders/xy/T/shellgate-tmp-1"))',
        '(allow file-write* (subpath "/Users/me/ws") (subpath "/Users/me/.npm"))',
        '(deny file-write* (subpath "/Users/me/ws/.git/hooks"))',
        '(deny file-write* (subpath "/Users/me/ws/.shellgate"))',
        '(deny file-read* file-write* (subpath "/Users/me/.ssh"))',
        '(deny file-read* file-write* (literal "/Users/me/.netrc"))',
        '(allow file-read* (literal "/Users/me/.shellgate/exec/cwd/c1"))',
        '(allow file-write* (literal "/Users/me/.shellgate/exec/cwd/c1"))',
        '',
      ].join('\n'),
    )
  })

  it('read-only: no writable roots and no network even when the setting says on', () => {
    const text = seatbeltProfile({ ...base, profile: 'read-only', network: 'on' }, '/t')
    expect(text).not.toContain('(subpath "/Users/me/ws")')
    expect(text).not.toContain('network')
  })

  it('no network namespace on macOS: on and allowlist may dial only the proxy and the allowed ports, never network*', () => {
    const egress = { socketDir: '', proxyPort: 50123, allowedPorts: [5432, 6379] }
    for (const network of ['on', 'allowlist'] as const) {
      const text = seatbeltProfile({ ...base, network, egress }, '/t')
      expect(text.split('\n').filter((line) => line.includes('network'))).toEqual([
        '(allow network-outbound (remote ip "localhost:50123"))',
        '(allow network-outbound (remote ip "localhost:5432"))',
        '(allow network-outbound (remote ip "localhost:6379"))',
      ])
    }
    expect(seatbeltProfile({ ...base, network: 'off', egress }, '/t')).not.toContain('network')
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
