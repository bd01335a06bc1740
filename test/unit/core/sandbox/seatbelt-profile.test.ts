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

  it('network on allows it; allowlist allows only the proxy port', () => {
    expect(seatbeltProfile({ ...base, network: 'on' }, '/t')).toContain('(allow network*)')
    const text = seatbeltProfile(
      { ...base, network: 'allowlist', proxy: { socketPath: '/s', port: 3128 } },
      '/t',
    )
    expect(text).toContain('(allow network-outbound (remote ip "localhost:3128"))')
    expect(text).not.toContain('(allow network*)')
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
