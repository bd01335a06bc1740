import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createSessionStore } from '../../../../src/main/core/sessions/session-store'
import { restoreSessionShell } from '../../../../src/main/core/sessions/session-shell'
import { nodeShellFs } from '../../../../src/main/core/shell/shell-fs'
import { type ShellSelection, shellEnvOverlay } from '../../../../src/main/core/shell/types'

const shell = (
  dialect: ShellSelection['dialect'],
  path: string,
  source: ShellSelection['source'] = 'env-shell',
): ShellSelection => ({
  dialect,
  path,
  source,
  reason: 'test',
  envOverlay: shellEnvOverlay(dialect, path),
})
const tableFs = (files: string[]) => ({ isExecutable: (p: string) => files.includes(p) })

let dataDir: string
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'shellgate-sessions-'))
})
afterEach(() => rmSync(dataDir, { recursive: true, force: true }))

describe('session store', () => {
  it('persists a session with its shell, 0600, and a new store (a restart) reads it back', async () => {
    const created = await createSessionStore(dataDir).create({
      workspace: '/w',
      shell: shell('zsh', '/usr/bin/zsh'),
      id: 's1',
    })
    const file = join(dataDir, 'sessions', 's1.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const again = createSessionStore(dataDir)
    expect(await again.load('s1')).toEqual(created)
    expect((await again.list()).map((s) => s.id)).toEqual(['s1'])
    expect(readdirSync(join(dataDir, 'sessions'))).toEqual(['s1.json'])
  })

  it('restores the same shell after a restart when it still runs, without a reminder', async () => {
    // A real executable standing in for the session's shell, so "gone" can be real too.
    const fakeBash = join(dataDir, 'bash')
    copyFileSync('/bin/bash', fakeBash)
    const store = createSessionStore(dataDir)
    await store.create({ workspace: '/w', shell: shell('bash', fakeBash), id: 's2' })
    const current = shell('zsh', '/usr/bin/zsh')
    const restored = await createSessionStore(dataDir).restore('s2', current, {
      fs: nodeShellFs,
      platform: 'linux',
    })
    expect(restored?.restore).toMatchObject({ state: 'restored', reminder: null })
    expect(restored?.record.shell.path).toBe(fakeBash)

    rmSync(fakeBash)
    const fallback = await createSessionStore(dataDir).restore('s2', current, {
      fs: nodeShellFs,
      platform: 'linux',
    })
    expect(fallback?.restore).toMatchObject({ state: 'fallback', reminder: 'The Bash tool shell is zsh.' })
    // Written back: the next restart is a plain restore of the fallback, and the reminder is on record.
    const reread = await createSessionStore(dataDir).load('s2')
    expect(reread?.shell.path).toBe('/usr/bin/zsh')
    expect(reread?.reminders).toEqual(['The Bash tool shell is zsh.'])
    const next = await createSessionStore(dataDir).restore('s2', current, {
      fs: nodeShellFs,
      platform: 'linux',
    })
    expect(next?.restore.state).toBe('restored')
  })

  it('is stale when neither the recorded shell nor a current one runs', async () => {
    const store = createSessionStore(dataDir)
    await store.create({ workspace: '/w', shell: shell('bash', '/gone/bash'), id: 's3' })
    const stale = await store.restore('s3', shell('zsh', '/gone/zsh'), { fs: tableFs([]), platform: 'linux' })
    expect(stale?.restore).toMatchObject({ state: 'stale', reminder: null })
    expect(stale?.restore.shell.path).toBe('/gone/bash')
    expect(await store.restore('s3', null, { fs: tableFs([]), platform: 'linux' })).toMatchObject({
      restore: { state: 'stale' },
    })
  })

  it('answers null for an unknown session, and refuses ids that are not file-name safe', async () => {
    const store = createSessionStore(dataDir)
    expect(await store.load('nope')).toBeNull()
    await expect(store.load('../etc/passwd')).rejects.toThrow(/letters, digits/)
    await expect(
      store.create({ workspace: '/w', shell: shell('bash', '/bin/bash'), id: 'a/b' }),
    ).rejects.toThrow(/letters, digits/)
  })

  it('names a damaged session file instead of crashing on it', async () => {
    const store = createSessionStore(dataDir)
    await store.create({ workspace: '/w', shell: shell('bash', '/bin/bash'), id: 'ok' })
    writeFileSync(join(dataDir, 'sessions', 'bad.json'), '{"version": 1')
    await expect(store.load('bad')).rejects.toThrow(/bad\.json is not valid JSON/)
    expect((await store.list()).map((s) => s.id)).toEqual(['ok'])
  })
})

describe('restoreSessionShell reminders', () => {
  const options = { platform: 'win32' as const }

  it('reminds when the fallback is an auto-detected Git Bash, even with the same name', () => {
    const recorded = shell('git-bash', 'C:\\Old\\Git\\bin\\bash.exe', 'setting')
    const current = shell('git-bash', 'C:\\Program Files\\Git\\bin\\bash.exe', 'auto-git-bash')
    const result = restoreSessionShell(recorded, current, { ...options, fs: tableFs([current.path]) })
    expect(result).toMatchObject({ state: 'fallback', reminder: 'The Bash tool shell is Git Bash.' })
  })

  it('does not remind when a fallback has the same name and was not auto-detected Git Bash', () => {
    const result = restoreSessionShell(shell('bash', '/old/bash'), shell('bash', '/bin/bash', 'search'), {
      platform: 'linux',
      fs: tableFs(['/bin/bash']),
    })
    expect(result).toMatchObject({ state: 'fallback', reminder: null })
  })

  it('never checks a literal cmd.exe on disk on Windows', () => {
    const result = restoreSessionShell(shell('cmd', 'cmd.exe', 'system'), null, {
      ...options,
      fs: tableFs([]),
    })
    expect(result.state).toBe('restored')
    const renamed = restoreSessionShell(
      shell('git-bash', 'D:\\gone\\bash.exe'),
      shell('cmd', 'cmd.exe', 'system'),
      {
        ...options,
        fs: tableFs([]),
      },
    )
    expect(renamed).toMatchObject({ state: 'fallback', reminder: 'The Bash tool shell is CMD.' })
  })
})
