import { execFileSync } from 'node:child_process'
import {
  existsSync,
  symlinkSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sanitizeEntryEnv } from '../../../../src/main/core/env/sanitize-entry'
import { createExecutionPort } from '../../../../src/main/core/exec'
import { prepareBashToolRequest } from '../../../../src/main/core/shell/bash-tool-request'
import { readCapturedCwd } from '../../../../src/main/core/shell/cwd-capture'
import {
  createShellSnapshotService,
  type ShellSnapshotService,
  snapshotDir,
} from '../../../../src/main/core/shell/snapshot-service'
import { shellEnvOverlay, type ShellSelection } from '../../../../src/main/core/shell/types'
import { type FakeHome, makeFakeHome, PROFILE_SOURCING_BASHRC } from '../../../fixtures/shell/fake-home'

const port = createExecutionPort()
let home: FakeHome
let dataDir: string
let snapshots: ShellSnapshotService

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'shellgate-data-'))
  snapshots = createShellSnapshotService({ dataDir, platform: 'linux' })
})
afterEach(async () => {
  await snapshots.close()
  home?.remove()
  rmSync(dataDir, { recursive: true, force: true })
})

const shellOf = (dialect: 'bash' | 'zsh', path: string): ShellSelection => ({
  dialect,
  path,
  source: 'env-shell',
  reason: 'test',
  envOverlay: shellEnvOverlay(dialect, path),
})

async function runBash(
  shell: ShellSelection,
  command: string,
  extraEnv: Record<string, string> = {},
  cwd?: string,
) {
  const prepared = await prepareBashToolRequest({
    shell,
    snapshots,
    runtimeEnv: sanitizeEntryEnv({ HOME: home.home, PATH: '/usr/bin:/bin', ...extraEnv }, 'linux'),
    platform: 'linux',
    dataDir,
    command,
    cwd: cwd ?? home.home,
  })
  const result = await port.execute({ ...prepared.request, timeoutMs: 20_000 })
  return { prepared, result, cwd: prepared.cwdFile ? await readCapturedCwd(prepared.cwdFile) : null }
}

const BASH_RC = [
  "alias ll='echo alias-ok'",
  'greet() { echo "hello $1"; }',
  'shopt -s globstar',
  'export PATH="$HOME/bin:$PATH"',
  '',
].join('\n')

describe('shell-init snapshot', () => {
  it('keeps functions whose bodies hold a here-doc, quotes of both kinds and $ signs (declare -f round trip)', async () => {
    const rc = [
      'report() {',
      "  local name='it''s'",
      '  cat <<EOF',
      'name: "$name" $1 \\$HOME literal',
      '\'single\' and "double"',
      'EOF',
      '}',
      '',
    ].join('\n')
    home = makeFakeHome({ '.profile': PROFILE_SOURCING_BASHRC, '.bashrc': rc })
    const { result, prepared } = await runBash(
      shellOf('bash', '/bin/bash'),
      'report arg1 > out.txt; cat out.txt',
    )
    expect(prepared.snapshot?.status).toBe('ready')
    expect(result.status).toBe('completed')
    expect(readFileSync(join(home.home, 'out.txt'), 'utf8')).toBe(
      `name: "its" arg1 $HOME literal\n'single' and "double"\n`,
    )
  })

  it('bash: an alias, a function, an option and PATH from ~/.bashrc all work in the command', async () => {
    home = makeFakeHome({ '.profile': PROFILE_SOURCING_BASHRC, '.bashrc': BASH_RC })
    home.write('bin/mytool', '#!/bin/sh\necho tool-ok\n', 0o755)
    const { prepared, result } = await runBash(
      shellOf('bash', '/bin/bash'),
      'll\ngreet you\nshopt -q globstar && echo option-ok\nmytool',
    )
    expect(prepared.snapshot?.status).toBe('ready')
    expect(result.stdout).toBe('alias-ok\nhello you\noption-ok\ntool-ok\n')
    expect(result.status).toBe('completed')
    const file = prepared.snapshot?.status === 'ready' ? prepared.snapshot.path : ''
    expect(file.startsWith(snapshotDir(dataDir))).toBe(true)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(readFileSync(file, 'utf8')).toMatch(/^unalias -a/m)
  })

  it('zsh: an alias, a function, an option and PATH from ~/.zshrc all work in the command', async () => {
    home = makeFakeHome({
      '.zshrc': [
        "alias ll='echo alias-ok'",
        'greet() { echo "hello $1" }',
        'setopt extendedglob',
        'export PATH="$HOME/bin:$PATH"',
        '',
      ].join('\n'),
    })
    home.write('bin/mytool', '#!/bin/sh\necho tool-ok\n', 0o755)
    const { prepared, result } = await runBash(
      shellOf('zsh', '/usr/bin/zsh'),
      'll; greet you; [[ -o extendedglob ]] && echo option-ok; mytool',
    )
    expect(prepared.snapshot?.status).toBe('ready')
    expect(result.stdout).toBe('alias-ok\nhello you\noption-ok\ntool-ok\n')
  })

  it('generates once per shell and reuses the file; close() deletes it', async () => {
    home = makeFakeHome({ '.profile': PROFILE_SOURCING_BASHRC, '.bashrc': BASH_RC })
    const a = await runBash(shellOf('bash', '/bin/bash'), 'true')
    const b = await runBash(shellOf('bash', '/bin/bash'), 'true')
    expect(a.prepared.snapshot).toEqual(b.prepared.snapshot)
    expect(readdirSync(snapshotDir(dataDir)).filter((n) => n.endsWith('.sh'))).toHaveLength(1)
    await snapshots.close()
    expect(readdirSync(snapshotDir(dataDir)).filter((n) => n.endsWith('.sh'))).toEqual([])
  })

  it('re-checks the file before use: a deleted snapshot means a login shell now and a new snapshot next', async () => {
    home = makeFakeHome({ '.profile': PROFILE_SOURCING_BASHRC, '.bashrc': BASH_RC })
    const first = await runBash(shellOf('bash', '/bin/bash'), 'true')
    const path = first.prepared.snapshot?.status === 'ready' ? first.prepared.snapshot.path : ''
    rmSync(path)
    const second = await runBash(
      shellOf('bash', '/bin/bash'),
      'greet login; shopt -q login_shell && echo is-login',
    )
    expect(second.prepared.snapshot).toMatchObject({
      status: 'unavailable',
      reason: expect.stringContaining('is gone'),
    })
    expect(second.result.stdout).toBe('hello login\nis-login\n')
    const third = await runBash(shellOf('bash', '/bin/bash'), 'll')
    expect(third.prepared.snapshot?.status).toBe('ready')
    expect(third.result.stdout).toBe('alias-ok\n')
  })

  it('sources the rc files as carefully as the login capture: quiet variables and a marker rc files can test', async () => {
    home = makeFakeHome({
      '.profile': PROFILE_SOURCING_BASHRC,
      '.bashrc':
        'if [ "$SHELLGATE_RESOLVING_ENVIRONMENT" = 1 ] && [ "$DISABLE_AUTO_UPDATE" = true ]; then quiet() { echo quiet-ok; }; fi\n',
    })
    const run = await runBash(
      shellOf('bash', '/bin/bash'),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
      'quiet; echo "${SHELLGATE_RESOLVING_ENVIRONMENT-unset}"',
    )
    expect(run.prepared.snapshot?.status).toBe('ready')
    // The function exists only if the rc saw both while generating; the command itself does not see them.
    expect(run.result.stdout).toBe('quiet-ok\nunset\n')
  })

  it('a truncated snapshot (no sentinel at its end) is detected before use: a login shell now, a new capture next', async () => {
    home = makeFakeHome({ '.profile': PROFILE_SOURCING_BASHRC, '.bashrc': BASH_RC })
    const first = await runBash(shellOf('bash', '/bin/bash'), 'true')
    const path = first.prepared.snapshot?.status === 'ready' ? first.prepared.snapshot.path : ''
    const text = readFileSync(path, 'utf8')
    expect(text.endsWith('__shellgate_snapshot_complete=1\n')).toBe(true)
    writeFileSync(path, text.slice(0, text.length - 10))
    const second = await runBash(
      shellOf('bash', '/bin/bash'),
      'greet cut; shopt -q login_shell && echo is-login',
    )
    expect(second.prepared.snapshot).toMatchObject({
      status: 'unavailable',
      reason: expect.stringContaining('is truncated'),
    })
    expect(second.result.stdout).toBe('hello cut\nis-login\n')
    expect(existsSync(path)).toBe(false)
    const third = await runBash(shellOf('bash', '/bin/bash'), 'll')
    expect(third.prepared.snapshot?.status).toBe('ready')
    expect(third.result.stdout).toBe('alias-ok\n')
  })

  it.each([
    // A syntax error stops `.` part-way; the sentinel at its end stays.
    ['made unparsable', (text: string) => `if then fi\n${text}`],
    // issue 24.1: it sources cleanly and sets the sentinel, with the user's setup gone.
    ['rewritten to its last line only', () => '__shellgate_snapshot_complete=1\n'],
    ['with its functions cut out', (text: string) => text.replace(/^greet \(\)[\s\S]*?^\}\n/m, '')],
    ['overwritten in place, same size', (text: string) => text.replace('alias-ok', 'alias-no')],
  ])(
    'a snapshot %s between runs is noticed before use: a login shell now, a new capture next',
    async (_how, corrupt) => {
      home = makeFakeHome({ '.profile': PROFILE_SOURCING_BASHRC, '.bashrc': BASH_RC })
      const first = await runBash(shellOf('bash', '/bin/bash'), 'true')
      const path = first.prepared.snapshot?.status === 'ready' ? first.prepared.snapshot.path : ''
      const text = readFileSync(path, 'utf8')
      writeFileSync(path, corrupt(text))
      expect(readFileSync(path, 'utf8')).not.toBe(text)
      const second = await runBash(
        shellOf('bash', '/bin/bash'),
        'greet corrupt; shopt -q login_shell && echo is-login',
      )
      expect(second.prepared.snapshot).toMatchObject({
        status: 'unavailable',
        reason: expect.stringContaining('changed'),
        loginFallback: true,
      })
      // The user's setup is there: the login shell read the rc files.
      expect(second.result.stdout).toBe('hello corrupt\nis-login\n')
      expect(existsSync(path)).toBe(false)
      // The very next command gets a fresh capture: the login-shell fallback happened once.
      const third = await runBash(shellOf('bash', '/bin/bash'), 'll; shopt -q login_shell || echo not-login')
      expect(third.prepared.snapshot).toMatchObject({ status: 'ready' })
      expect(third.prepared.snapshot?.status === 'ready' && third.prepared.snapshot.path).not.toBe(path)
      expect(third.result.stdout).toBe('alias-ok\nnot-login\n')
    },
  )

  it.each([
    [
      'a symlink to a copy',
      (path: string, text: string) => {
        const elsewhere = `${path}.planted`
        writeFileSync(elsewhere, text)
        rmSync(path)
        symlinkSync(elsewhere, path)
      },
    ],
    [
      'a FIFO',
      (path: string) => {
        rmSync(path)
        execFileSync('mkfifo', [path])
      },
    ],
  ])(
    "%s put in the snapshot's place is neither followed nor waited on: a login shell, then a new capture",
    async (_what, plant) => {
      home = makeFakeHome({ '.profile': PROFILE_SOURCING_BASHRC, '.bashrc': BASH_RC })
      const first = await runBash(shellOf('bash', '/bin/bash'), 'true')
      const path = first.prepared.snapshot?.status === 'ready' ? first.prepared.snapshot.path : ''
      plant(path, readFileSync(path, 'utf8'))
      const second = await runBash(
        shellOf('bash', '/bin/bash'),
        'greet plant; shopt -q login_shell && echo is-login',
      )
      expect(second.prepared.snapshot?.status).toBe('unavailable')
      expect(second.result.stdout).toBe('hello plant\nis-login\n')
      const third = await runBash(shellOf('bash', '/bin/bash'), 'll')
      expect(third.prepared.snapshot?.status === 'ready' && third.prepared.snapshot.path).not.toBe(path)
      expect(third.result.stdout).toBe('alias-ok\n')
      rmSync(path, { force: true })
      rmSync(`${path}.planted`, { force: true })
    },
  )

  it('survives an rc that prints junk and asks a question while generating', async () => {
    home = makeFakeHome({
      '.bashrc':
        'echo "Welcome!"\nprintf "Continue? [y/N] "; read -r answer\nalias ok=\'echo answered-$answer\'\n',
    })
    const { prepared, result } = await runBash(shellOf('bash', '/bin/bash'), 'ok')
    expect(prepared.snapshot?.status).toBe('ready')
    expect(result.stdout).toBe('answered-\n')
  })

  it('reports an rc that exits non-zero while generating, and commands still run', async () => {
    home = makeFakeHome({ '.bashrc': 'exit 4\n' })
    const { prepared, result } = await runBash(shellOf('bash', '/bin/bash'), 'echo still-runs')
    expect(prepared.snapshot).toEqual({
      status: 'unavailable',
      reason: 'generating the bash snapshot with /bin/bash exited with 4',
      loginFallback: true,
    })
    expect(result.stdout).toBe('still-runs\n')
  })

  it('after a generator timeout (an rc that hangs), commands run without the rc instead of hanging too', async () => {
    home = makeFakeHome({ '.profile': PROFILE_SOURCING_BASHRC, '.bashrc': 'sleep 30\n' })
    await snapshots.close()
    snapshots = createShellSnapshotService({ dataDir, platform: 'linux', timeoutMs: 1_000 })
    const first = await runBash(
      shellOf('bash', '/bin/bash'),
      'echo runs; shopt -q login_shell || echo not-login',
    )
    expect(first.prepared.snapshot).toEqual({
      status: 'unavailable',
      reason:
        'generating the bash snapshot with /bin/bash timed out after 1 s; commands run without the rc files',
      loginFallback: false,
    })
    expect(first.result.status).toBe('completed')
    expect(first.result.stdout).toBe('runs\nnot-login\n')
    // The failure is remembered: later commands do not wait for the generator again.
    const later = await runBash(shellOf('bash', '/bin/bash'), 'echo again')
    expect(later.prepared.snapshot).toBe(first.prepared.snapshot)
    expect(later.result.stdout).toBe('again\n')
  })

  it('Git Bash: drops the winpty alias and takes PATH from a separate login run', async () => {
    home = makeFakeHome({
      '.profile': 'export PATH="$HOME/gitbin:$PATH"\n',
      '.bashrc': "alias winpty='winpty.exe'\nalias gs='git status'\n",
    })
    const snapshot = await snapshots.ensureShellSnapshot(
      { dialect: 'git-bash', path: '/bin/bash' },
      { HOME: home.home, PATH: '/usr/bin:/bin' },
    )
    expect(snapshot.status).toBe('ready')
    const text = readFileSync(snapshot.status === 'ready' ? snapshot.path : '', 'utf8')
    expect(text).toContain("alias gs='git status'")
    expect(text).not.toContain('winpty')
    expect(text).toMatch(new RegExp(`^export PATH='${home.path('gitbin')}:`, 'm'))
  })

  it('removes snapshot files older than 30 days at start, and keeps newer ones', async () => {
    home = makeFakeHome()
    const dir = snapshotDir(dataDir)
    await snapshots.ready
    const { mkdirSync } = await import('node:fs')
    mkdirSync(dir, { recursive: true })
    const old = join(dir, 'snapshot-bash-1-old.sh')
    const recent = join(dir, 'snapshot-bash-2-new.sh')
    const other = join(dir, 'notes.txt')
    for (const f of [old, recent, other]) writeFileSync(f, '#')
    const longAgo = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000)
    utimesSync(old, longAgo, longAgo)
    utimesSync(other, longAgo, longAgo)
    const service = createShellSnapshotService({ dataDir, platform: 'linux' })
    await service.ready
    expect(existsSync(old)).toBe(false)
    expect(existsSync(recent)).toBe(true)
    expect(existsSync(other)).toBe(true)
    await service.close()
  })
})

describe('the Bash tool command line', () => {
  it('captures the final directory with pwd -P on exit 0 only', async () => {
    home = makeFakeHome()
    const target = home.path('sub')
    const ok = await runBash(shellOf('bash', '/bin/bash'), `mkdir -p '${target}' && cd '${target}'`)
    expect(ok.cwd).toBe(target)
    const failed = await runBash(shellOf('bash', '/bin/bash'), 'cd / && false')
    expect(failed.result.exitCode).toBe(1)
    expect(failed.cwd).toBeNull()
    const zsh = await runBash(shellOf('zsh', '/usr/bin/zsh'), 'cd /usr')
    expect(zsh.cwd).toBe('/usr')
  })

  it('keeps an unbalanced quote in the user command from swallowing the capture', async () => {
    home = makeFakeHome()
    const { result, cwd } = await runBash(shellOf('bash', '/bin/bash'), "echo 'abc")
    expect(result.status).toBe('failed')
    expect(result.stderr).toMatch(/unexpected EOF|matching/)
    expect(cwd).toBeNull()
  })

  it('sets GIT_EDITOR=true and SHELL, restores sealed proxies and never runs BASH_ENV', async () => {
    home = makeFakeHome({ '.profile': PROFILE_SOURCING_BASHRC, '.bashrc': BASH_RC })
    const marker = home.path('bash-env-ran')
    const hook = home.write('hook.sh', `echo ran > '${marker}'\n`)
    const env = { BASH_ENV: hook, ENV: hook, HTTP_PROXY: 'http://proxy:3128' }
    const withSnapshot = await runBash(
      shellOf('bash', '/bin/bash'),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
      'echo "$GIT_EDITOR|$SHELL|$HTTP_PROXY|${BASH_ENV-none}"',
      env,
    )
    expect(withSnapshot.result.stdout).toBe('true|/bin/bash|http://proxy:3128|none\n')
    await snapshots.close()
    const login = await runBash(shellOf('bash', '/bin/bash'), 'sh -c true; bash -c true', env)
    expect(login.result.status).toBe('completed')
    expect(existsSync(marker)).toBe(false)
  })

  it('runs a startup script before the command, stored 0600 by content hash', async () => {
    home = makeFakeHome()
    const prepared = await prepareBashToolRequest({
      shell: shellOf('bash', '/bin/bash'),
      snapshots,
      runtimeEnv: { HOME: home.home, PATH: '/usr/bin:/bin' },
      platform: 'linux',
      dataDir,
      command: 'helper',
      cwd: home.home,
      startupScript: { sessionId: 'session-1', content: 'helper() { echo helper-ok; }\n' },
    })
    const result = await port.execute({ ...prepared.request, timeoutMs: 20_000 })
    expect(result.stdout).toBe('helper-ok\n')
    const dir = join(dataDir, 'exec', 'bash-startup', 'session-1')
    const [name] = readdirSync(dir)
    expect(name).toMatch(/^[0-9a-f]{64}\.sh$/)
    expect(statSync(join(dir, name!)).mode & 0o777).toBe(0o600)
  })
})
