import { describe, expect, it } from 'vitest'
import { discoverShells, selectShell } from '../../../../src/main/core/shell/discover'
import type { ShellFs } from '../../../../src/main/core/shell/types'

/** A file system that has exactly these executables (case-insensitive on Windows, as NTFS is). */
function tableFs(files: string[], caseInsensitive = false): ShellFs {
  const norm = (p: string) => (caseInsensitive ? p.toLowerCase() : p)
  const set = new Set(files.map(norm))
  return { isExecutable: (path) => set.has(norm(path)) }
}

describe('posix shell selection', () => {
  const fs = tableFs(['/bin/bash', '/usr/bin/zsh', '/opt/homebrew/bin/zsh', '/bin/sh', '/usr/local/bin/fish'])

  it('uses $SHELL when it is bash or zsh', () => {
    const selection = selectShell({
      platform: 'darwin',
      env: { SHELL: '/opt/homebrew/bin/zsh', PATH: '/usr/bin' },
      fs,
    })
    expect(selection).toEqual({
      dialect: 'zsh',
      path: '/opt/homebrew/bin/zsh',
      source: 'env-shell',
      reason: '$SHELL is zsh',
      envOverlay: { GIT_EDITOR: 'true', SHELL: '/opt/homebrew/bin/zsh' },
    })
  })

  it('searches zsh first when $SHELL is something else, PATH before the usual dirs', () => {
    const selection = selectShell({
      platform: 'linux',
      env: { SHELL: '/usr/local/bin/fish', PATH: '/usr/bin:/bin' },
      fs,
    })
    expect(selection).toMatchObject({ dialect: 'zsh', path: '/usr/bin/zsh', source: 'search' })
    expect(selection.reason).toBe('$SHELL is not bash or zsh; first zsh found in PATH')
  })

  it('searches bash first when $SHELL names a bash that is gone, and reports it', () => {
    const found = discoverShells({
      platform: 'linux',
      env: { SHELL: '/usr/local/bin/bash', PATH: '/usr/bin' },
      fs,
    })
    expect(found.selection).toMatchObject({ dialect: 'bash', path: '/bin/bash', source: 'search' })
    expect(found.problems).toEqual(['$SHELL /usr/local/bin/bash does not exist'])
  })

  it('falls back to the system shell when there is neither bash nor zsh', () => {
    const selection = selectShell({ platform: 'linux', env: { PATH: '/usr/bin' }, fs: tableFs(['/bin/sh']) })
    expect(selection).toMatchObject({ dialect: 'sh', path: '/bin/sh', source: 'system' })
  })

  it('honours a bash or zsh setting whose path works, and explains one that does not', () => {
    const env = { SHELL: '/bin/bash', PATH: '/usr/bin' }
    expect(selectShell({ platform: 'linux', env, fs, settings: { kind: 'zsh' } })).toMatchObject({
      dialect: 'zsh',
      path: '/usr/bin/zsh',
      source: 'setting',
    })
    const broken = discoverShells({
      platform: 'linux',
      env,
      fs,
      settings: { kind: 'zsh', path: '/nope/zsh' },
    })
    expect(broken.selection).toMatchObject({ dialect: 'bash', source: 'env-shell' })
    expect(broken.problems).toEqual([
      'the zsh set in Settings (/nope/zsh) is not an executable file; detecting instead',
    ])
  })

  it('lists every bash and zsh found, once each', () => {
    const { candidates } = discoverShells({
      platform: 'linux',
      env: { SHELL: '/bin/bash', PATH: '/usr/bin:/bin' },
      fs,
    })
    expect(candidates).toEqual([
      { dialect: 'bash', path: '/bin/bash', foundIn: '$SHELL' },
      { dialect: 'zsh', path: '/usr/bin/zsh', foundIn: 'PATH' },
      { dialect: 'zsh', path: '/opt/homebrew/bin/zsh', foundIn: '/opt/homebrew/bin' },
    ])
  })

  it('finds the real bash and zsh of this machine', () => {
    const { candidates } = discoverShells({
      platform: 'linux',
      env: { SHELL: '/bin/bash', PATH: '/usr/bin:/bin' },
    })
    expect(candidates.map((c) => c.dialect)).toEqual(expect.arrayContaining(['bash', 'zsh']))
  })
})

describe('win32 shell selection (injected tables)', () => {
  const baseEnv = {
    ProgramFiles: 'C:\\Program Files',
    'ProgramFiles(x86)': 'C:\\Program Files (x86)',
    LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local',
    ComSpec: 'C:\\Windows\\system32\\cmd.exe',
    SystemRoot: 'C:\\Windows',
    Path: 'C:\\Windows\\system32;D:\\Tools\\Git\\cmd',
  }

  it('detects Git Bash in Program Files first', () => {
    const fs = tableFs(
      [
        'C:\\Program Files\\Git\\bin\\bash.exe',
        'D:\\Tools\\Git\\cmd\\git.exe',
        'D:\\Tools\\Git\\bin\\bash.exe',
      ],
      true,
    )
    const { selection, candidates } = discoverShells({ platform: 'win32', env: baseEnv, fs })
    expect(selection).toEqual({
      dialect: 'git-bash',
      path: 'C:\\Program Files\\Git\\bin\\bash.exe',
      source: 'auto-git-bash',
      reason: 'Git Bash detected in Program Files',
      envOverlay: { GIT_EDITOR: 'true', SHELL: 'C:\\Program Files\\Git\\bin\\bash.exe' },
    })
    expect(candidates.map((c) => [c.path, c.foundIn])).toEqual([
      ['C:\\Program Files\\Git\\bin\\bash.exe', 'Program Files'],
      ['D:\\Tools\\Git\\bin\\bash.exe', 'git.exe on PATH'],
      ['C:\\Windows\\system32\\cmd.exe', 'ComSpec'],
    ])
  })

  it('detects Git Bash in Program Files (x86), two levels up from git.exe, and LocalAppData', () => {
    const x86 = tableFs(['C:\\Program Files (x86)\\Git\\bin\\bash.exe'])
    expect(selectShell({ platform: 'win32', env: baseEnv, fs: x86 }).path).toBe(
      'C:\\Program Files (x86)\\Git\\bin\\bash.exe',
    )
    const onPath = tableFs(['D:\\Tools\\Git\\cmd\\git.exe', 'D:\\Tools\\Git\\bin\\bash.exe'])
    expect(selectShell({ platform: 'win32', env: baseEnv, fs: onPath })).toMatchObject({
      path: 'D:\\Tools\\Git\\bin\\bash.exe',
      reason: 'Git Bash detected in git.exe on PATH',
    })
    const local = tableFs(['C:\\Users\\me\\AppData\\Local\\Programs\\Git\\bin\\bash.exe'])
    expect(selectShell({ platform: 'win32', env: baseEnv, fs: local }).source).toBe('auto-git-bash')
  })

  it('falls back to cmd.exe from ComSpec, and never to PowerShell', () => {
    expect(selectShell({ platform: 'win32', env: baseEnv, fs: tableFs([]) })).toEqual({
      dialect: 'cmd',
      path: 'C:\\Windows\\system32\\cmd.exe',
      source: 'system',
      reason: 'Git Bash was not found; using cmd.exe from ComSpec',
      envOverlay: { GIT_EDITOR: 'true' },
    })
    const powershell = {
      ...baseEnv,
      ComSpec: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
    }
    const found = discoverShells({ platform: 'win32', env: powershell, fs: tableFs([]) })
    expect(found.selection.path).toBe('C:\\Windows\\System32\\cmd.exe')
    expect(found.problems[0]).toContain('not cmd.exe')
  })

  it('honours the Git Bash or CMD setting when its path works, else detects and says why', () => {
    const fs = tableFs(['E:\\git\\bin\\bash.exe', 'C:\\Program Files\\Git\\bin\\bash.exe'])
    expect(
      selectShell({
        platform: 'win32',
        env: baseEnv,
        fs,
        settings: { kind: 'git-bash', path: 'E:\\git\\bin\\bash.exe' },
      }),
    ).toMatchObject({ path: 'E:\\git\\bin\\bash.exe', source: 'setting' })
    expect(selectShell({ platform: 'win32', env: baseEnv, fs, settings: { kind: 'cmd' } })).toMatchObject({
      dialect: 'cmd',
      source: 'setting',
    })
    const broken = discoverShells({
      platform: 'win32',
      env: baseEnv,
      fs,
      settings: { kind: 'git-bash', path: 'Z:\\nope.exe' },
    })
    expect(broken.selection).toMatchObject({
      path: 'C:\\Program Files\\Git\\bin\\bash.exe',
      source: 'auto-git-bash',
    })
    expect(broken.problems).toEqual([
      'the Git Bash set in Settings (Z:\\nope.exe) is not an executable file; detecting instead',
    ])
  })

  it('reads Windows variables case-insensitively', () => {
    const env = { PROGRAMFILES: 'F:\\PF', COMSPEC: 'F:\\Win\\cmd.exe' }
    expect(selectShell({ platform: 'win32', env, fs: tableFs(['F:\\PF\\Git\\bin\\bash.exe']) }).path).toBe(
      'F:\\PF\\Git\\bin\\bash.exe',
    )
    expect(selectShell({ platform: 'win32', env, fs: tableFs([]) }).path).toBe('F:\\Win\\cmd.exe')
  })
})
