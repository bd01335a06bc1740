import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  bashToolExecutionCommand,
  composeBashScript,
} from '../../../../src/main/core/shell/bash-command-line'
import { runsAsLoginShell } from '../../../../src/main/core/shell/bash-tool-request'
import { shQuote, toGitBashPath } from '../../../../src/main/core/shell/posix-quote'

describe('the Bash tool script', () => {
  it('sources the snapshot quietly, checks it loaded whole (else removes it and runs once as a login shell), then the startup script and the command', () => {
    const script = composeBashScript({
      shell: { dialect: 'bash', path: '/bin/bash' },
      snapshotPath: '/data/snap.sh',
      startupScriptPath: '/data/start.sh',
      command: "echo 'it''s'",
      cwdFile: '/data/cwd-1',
    })
    const rest = [
      ". '/data/start.sh'",
      `eval ${shQuote("echo 'it''s'")} && { pwd -P >| '/data/cwd-1' 2>/dev/null || true; }`,
    ].join('\n')
    expect(script).toBe(
      [
        "unset __shellgate_snapshot_complete; . '/data/snap.sh' 2>/dev/null",
        `if [ "\${__shellgate_snapshot_complete-}" != 1 ]; then mv -f '/data/snap.sh' '/data/snap.sh.failed' 2>/dev/null; exec '/bin/bash' -l -c ${shQuote(rest)}; fi`,
        rest,
      ].join('\n'),
    )
  })

  it('writes Git Bash paths in MSYS form', () => {
    expect(toGitBashPath('C:\\Users\\me\\.shellgate\\snap.sh')).toBe('/c/Users/me/.shellgate/snap.sh')
    const script = composeBashScript({
      shell: { dialect: 'git-bash', path: 'C:\\Program Files\\Git\\bin\\bash.exe' },
      snapshotPath: 'D:\\data\\snap.sh',
      startupScriptPath: null,
      command: 'ls',
      cwdFile: null,
    })
    expect(script.split('\n')).toEqual([
      "unset __shellgate_snapshot_complete; . '/d/data/snap.sh' 2>/dev/null",
      `if [ "\${__shellgate_snapshot_complete-}" != 1 ]; then mv -f '/d/data/snap.sh' '/d/data/snap.sh.failed' 2>/dev/null; exec '/c/Program Files/Git/bin/bash.exe' -l -c ${shQuote("eval 'ls'")}; fi`,
      "eval 'ls'",
    ])
  })

  it('uses cmd syntax for CMD: no snapshot, `cd` into the capture file', () => {
    const script = composeBashScript({
      shell: { dialect: 'cmd', path: 'cmd.exe' },
      snapshotPath: null,
      startupScriptPath: null,
      command: 'dir',
      cwdFile: 'C:\\data\\cwd-1',
    })
    expect(script).toBe('dir && cd > "C:\\data\\cwd-1"')
  })

  it('runs without a snapshot as a login shell by exec-ing the shell with -l, keeping the posix-bash profile', () => {
    expect(bashToolExecutionCommand({ dialect: 'zsh', path: '/bin/zsh' }, 'echo hi', true)).toEqual({
      mode: 'shell',
      command: "exec '/bin/zsh' -l -c 'echo hi'",
      shell: '/bin/zsh',
      shellProfile: 'posix-bash',
    })
    expect(bashToolExecutionCommand({ dialect: 'bash', path: '/bin/bash' }, 'echo hi', false).command).toBe(
      'echo hi',
    )
    // sh and cmd have no login mode to ask for.
    expect(bashToolExecutionCommand({ dialect: 'sh', path: '/bin/sh' }, 'echo hi', true).command).toBe(
      'echo hi',
    )
  })

  it('runs a zsh terminal command as an interactive zsh, which alone hands the terminal to its jobs', () => {
    const zsh = { dialect: 'zsh', path: '/bin/zsh' } as const
    const flags = '-o interactive -o interactive_comments'
    expect(bashToolExecutionCommand(zsh, 'echo hi', true, true).command).toBe(
      `exec '/bin/zsh' -l ${flags} -c 'echo hi'`,
    )
    // With a snapshot: no startup files, the snapshot holds what they set.
    expect(bashToolExecutionCommand(zsh, 'echo hi', false, true).command).toBe(
      `exec '/bin/zsh' -f ${flags} -c 'echo hi'`,
    )
    const script = composeBashScript({
      shell: zsh,
      snapshotPath: '/data/snap.zsh',
      startupScriptPath: null,
      command: 'python3 -i',
      cwdFile: null,
      jobControl: true,
    })
    expect(script).toContain(`exec '/bin/zsh' -l ${flags} -c `)
    // bash takes job control from `set -m` in the script and needs nothing on its command line.
    expect(
      bashToolExecutionCommand({ dialect: 'bash', path: '/bin/bash' }, 'echo hi', false, true).command,
    ).toBe('echo hi')
  })

  it('falls back to a login shell except after a generator timeout', () => {
    expect(runsAsLoginShell(null)).toBe(true)
    expect(runsAsLoginShell({ status: 'ready', path: '/s', dialect: 'bash', shellPath: '/bin/bash' })).toBe(
      false,
    )
    expect(runsAsLoginShell({ status: 'unavailable', reason: 'x', loginFallback: true })).toBe(true)
    expect(runsAsLoginShell({ status: 'unavailable', reason: 'timed out', loginFallback: false })).toBe(false)
  })
})

describe('the script, run by real bash, against a snapshot that fails to source', () => {
  // The service checks the file before use; a file changed after that check (a race) is caught by
  // the command itself: it never reaches the sentinel, so it runs once as a login shell.
  it('moves the file aside as failed and runs the command as a login shell', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shellgate-snap-'))
    try {
      const snapshot = join(dir, 'snap.sh')
      writeFileSync(snapshot, 'if then fi\n__shellgate_snapshot_complete=1\n')
      const script = composeBashScript({
        shell: { dialect: 'bash', path: '/bin/bash' },
        snapshotPath: snapshot,
        startupScriptPath: null,
        command: 'shopt -q login_shell && echo is-login',
        cwdFile: null,
      })
      const out = execFileSync('/bin/bash', ['-c', script], {
        env: { PATH: '/usr/bin:/bin', HOME: dir },
        encoding: 'utf8',
      })
      expect(out).toBe('is-login\n')
      expect(existsSync(snapshot)).toBe(false)
      expect(existsSync(`${snapshot}.failed`)).toBe(true)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
