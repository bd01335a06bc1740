import { execFileSync } from 'node:child_process'
import { chmodSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SettingsError } from '../../../../src/main/core/settings/settings-error'
import {
  openSettingsStore,
  type SettingsChange,
  type SettingsStore,
} from '../../../../src/main/core/settings/settings-store'

let root: string
let home: string
let workspace: string

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'shellgate-store-'))
  home = join(root, 'home')
  workspace = join(root, 'workspace')
  await mkdir(workspace)
})

/** root ignores permission bits, so for root the directory is made immutable instead (ext4). */
function setDirectoryWritable(dir: string, writable: boolean): void {
  if (process.getuid?.() === 0) execFileSync('chattr', [writable ? '-i' : '+i', dir])
  else chmodSync(dir, writable ? 0o700 : 0o500)
}

afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

const open = (validateRule?: (rule: string) => string | null) =>
  openSettingsStore({ home, workspace, validateRule })

const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'))

describe('openSettingsStore', () => {
  it('starts from the defaults and creates no file until something changes', async () => {
    const store = await open()
    expect(store.user().shell.kind).toBe('auto')
    expect(store.warnings()).toEqual([])
    expect(await readdir(root)).toEqual(['workspace'])
  })

  it('refuses a workspace that does not exist', async () => {
    await expect(openSettingsStore({ home, workspace: join(root, 'nope') })).rejects.toThrow(
      /workspace: .*nope is not an existing directory/,
    )
  })

  it('keeps a corrupt user file as .bak, runs on defaults, warns, and then saves normally', async () => {
    await mkdir(home)
    await writeFile(join(home, 'settings.json'), 'not json')
    const store = await open()
    expect(store.user().permissions.mode).toBe('build')
    expect(store.warnings()).toEqual([
      expect.objectContaining({ file: store.userFile, backupPath: `${store.userFile}.bak` }),
    ])
    await store.updateUser({ permissions: { mode: 'plan' } })
    expect((await readJson(store.userFile)).permissions.mode).toBe('plan')
    expect(await readFile(`${store.userFile}.bak`, 'utf8')).toBe('not json')
  })
  it('refuses a workspace .shellgate that is a symlink: no rules read from it, nothing written through it', async () => {
    const elsewhere = join(root, 'elsewhere')
    await mkdir(elsewhere)
    await writeFile(
      join(elsewhere, 'settings.json'),
      JSON.stringify({ permissions: { allow: ['rm -rf /'] } }),
    )
    await symlink(elsewhere, join(workspace, '.shellgate'))
    const store = await open()
    expect(store.rules()).toEqual([])
    expect(store.warnings()).toEqual([
      {
        file: store.workspaceFile,
        reason: expect.stringMatching(/is a symlink, which is refused/),
        backupPath: null,
      },
    ])
    await expect(store.addRule({ scope: 'workspace', list: 'allow', rule: 'ls' })).rejects.toMatchObject({
      code: 'unwritable',
    })
    expect(await readdir(elsewhere)).toEqual(['settings.json'])
  })
})

describe("an unusable workspace settings file (the repository's own)", () => {
  it('refuses a file with more rules per list than a decision should scan', async () => {
    await mkdir(join(workspace, '.shellgate'))
    const deny = Array.from({ length: 1_001 }, (_, i) => `cmd${i}:*`)
    await writeFile(join(workspace, '.shellgate', 'settings.json'), JSON.stringify({ permissions: { deny } }))
    const store = await open()
    expect(store.rules()).toEqual([])
    expect(store.warnings()[0]?.reason).toContain('at most 1000 rules per list')
  })

  it('is ignored with a warning, never renamed or rewritten, and writes to it are refused', async () => {
    await mkdir(join(workspace, '.shellgate'))
    const file = join(workspace, '.shellgate', 'settings.json')
    await writeFile(file, '{"permissions":{"allow":"oops"}}')
    const store = await open()
    expect(store.warnings()).toEqual([
      { file, reason: expect.stringContaining('ignored and left as it is'), backupPath: null },
    ])
    expect(await readdir(join(workspace, '.shellgate'))).toEqual(['settings.json'])
    expect(await readFile(file, 'utf8')).toBe('{"permissions":{"allow":"oops"}}')
    await expect(store.addRule({ scope: 'workspace', list: 'allow', rule: 'ls' })).rejects.toMatchObject({
      code: 'unwritable',
    })
    expect(await readFile(file, 'utf8')).toBe('{"permissions":{"allow":"oops"}}')
  })
})

describe('a .shellgate symlink planted after open', () => {
  it('is refused at the next write, so nothing outside the workspace is replaced', async () => {
    const store = await open()
    const elsewhere = join(root, 'elsewhere')
    await mkdir(elsewhere)
    await writeFile(join(elsewhere, 'settings.json'), '{"precious":true}')
    // A command that ran since start (in yolo mode, say) planted the link.
    await symlink(elsewhere, join(workspace, '.shellgate'))
    await expect(store.addRule({ scope: 'workspace', list: 'allow', rule: 'ls' })).rejects.toMatchObject({
      code: 'unwritable',
      message: expect.stringContaining('symlink'),
    })
    expect(await readFile(join(elsewhere, 'settings.json'), 'utf8')).toBe('{"precious":true}')
    expect(await readdir(elsewhere)).toEqual(['settings.json'])
  })
})

describe('updates', () => {
  it('merges a partial patch, writes 0600 and survives a reopen', async () => {
    const store = await open()
    await store.updateUser({ shell: { kind: 'zsh', path: '/usr/bin/zsh' } })
    await store.updateUser({ network: { httpProxy: 'http://127.0.0.1:3128' } })
    expect(store.user().shell).toEqual({ kind: 'zsh', path: '/usr/bin/zsh' })
    expect((await stat(store.userFile)).mode & 0o777).toBe(0o600)
    const reopened = await open()
    expect(reopened.user().shell.kind).toBe('zsh')
    expect(reopened.user().network.httpProxy).toBe('http://127.0.0.1:3128')
  })

  it('clears an optional field with null', async () => {
    const store = await open()
    await store.updateUser({ shell: { kind: 'bash', path: '/bin/bash' } })
    await store.updateUser({ shell: { path: null } })
    expect(store.user().shell).toEqual({ kind: 'bash' })
  })

  it.each([
    [{ limits: { defaultTimeoutMs: 'soon' } }, 'limits.defaultTimeoutMs'],
    [{ permissions: { mode: 'reckless' } }, 'permissions.mode'],
    [{ shell: { knd: 'bash' } }, 'shell.knd'],
    [{ colour: 'blue' }, 'colour'],
    [{ permissions: { allow: ['  '] } }, 'permissions.allow.0'],
  ])('refuses %j, names %s and writes nothing', async (patch, field) => {
    const store = await open()
    await store.updateUser({ permissions: { mode: 'plan' } })
    const before = await readFile(store.userFile, 'utf8')
    const refused = await store.updateUser(patch as never).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(SettingsError)
    expect((refused as SettingsError).field).toBe(field)
    expect(await readFile(store.userFile, 'utf8')).toBe(before)
    expect(store.user().permissions.mode).toBe('plan')
  })

  it('does not lose either of two concurrent updates', async () => {
    const store = await open()
    await Promise.all([
      store.updateUser({ shell: { kind: 'bash' } }),
      store.updateUser({ permissions: { mode: 'yolo' } }),
      store.updateUser({ approvals: { timeoutMs: 5_000 } }),
    ])
    const saved = await readJson(store.userFile)
    expect([saved.shell.kind, saved.permissions.mode, saved.approvals.timeoutMs]).toEqual([
      'bash',
      'yolo',
      5_000,
    ])
  })

  it('tells listeners about each change, and stops when unsubscribed', async () => {
    const store = await open()
    const changes: SettingsChange[] = []
    const unsubscribe = store.onChange((change) => changes.push(change))
    await store.updateUser({ permissions: { mode: 'plan' } })
    await store.updateWorkspace({ permissions: { deny: ['rm -rf:*'] } })
    unsubscribe()
    await store.updateUser({ permissions: { mode: 'yolo' } })
    expect(changes.map((c) => c.scope)).toEqual(['user', 'workspace'])
    expect(changes[0]).toMatchObject({ settings: { permissions: { mode: 'plan' } } })
  })

  it('never overwrites a corrupt file it could not back up', async () => {
    await mkdir(home)
    await writeFile(join(home, 'settings.json'), 'precious but broken')
    setDirectoryWritable(home, false) // the rename to .bak fails
    const store = await open().finally(() => setDirectoryWritable(home, true))
    expect(store.warnings()[0]).toMatchObject({ backupPath: null })
    await expect(store.updateUser({ permissions: { mode: 'plan' } })).rejects.toThrow(
      /as it is on disk now is not valid JSON.*; nothing was written over it/,
    )
    expect(await readFile(join(home, 'settings.json'), 'utf8')).toBe('precious but broken')
  })
})

describe('rules by scope', () => {
  let store: SettingsStore

  beforeEach(async () => {
    store = await open((rule) => (rule.includes('**') ? 'a rule may not contain **' : null))
  })

  it('keeps session rules in memory for that session only', async () => {
    const added = await store.addRule({
      scope: 'session',
      sessionId: 's1',
      list: 'allow',
      rule: ' npm test ',
    })
    expect(added).toEqual({ list: 'allow', rule: 'npm test', scope: 'session', source: 'session:s1' })
    expect(store.rules('s1')).toEqual([added])
    expect(store.rules('s2')).toEqual([])
    expect(await readdir(root)).toEqual(['workspace'])
    store.closeSession('s1')
    expect(store.rules('s1')).toEqual([])
  })

  it('persists workspace and user rules in their own files and lists them with their source', async () => {
    await store.addRule({ scope: 'workspace', list: 'allow', rule: 'npm run build' })
    await store.addRule({ scope: 'user', list: 'deny', rule: 'git push:*' })
    await store.addRule({ scope: 'user', list: 'deny', rule: 'git push:*' })
    expect((await readJson(store.workspaceFile)).permissions.allow).toEqual(['npm run build'])
    expect((await readJson(store.userFile)).permissions).toEqual({
      mode: 'build',
      allow: [],
      ask: [],
      deny: ['git push:*'],
    })
    expect(store.workspaceFile).toBe(join(workspace, '.shellgate', 'settings.json'))
    expect(store.rules()).toEqual([
      { list: 'allow', rule: 'npm run build', scope: 'workspace', source: store.workspaceFile },
      { list: 'deny', rule: 'git push:*', scope: 'user', source: store.userFile },
    ])
  })

  it('removes a rule and says whether it was there', async () => {
    await store.addRule({ scope: 'user', list: 'allow', rule: 'make' })
    expect(await store.removeRule({ scope: 'user', list: 'allow', rule: 'make' })).toBe(true)
    expect(await store.removeRule({ scope: 'user', list: 'allow', rule: 'make' })).toBe(false)
    expect((await readJson(store.userFile)).permissions.allow).toEqual([])
  })

  it.each([
    [{ scope: 'user', list: 'allow', rule: '' }, 'rule'],
    [{ scope: 'user', list: 'allow', rule: 'ls **' }, 'rule'],
    [{ scope: 'user', list: 'sometimes', rule: 'ls' }, 'list'],
    [{ scope: 'global', list: 'allow', rule: 'ls' }, 'scope'],
    [{ scope: 'session', list: 'allow', rule: 'ls' }, 'sessionId'],
  ])('refuses %j naming %s', async (change, field) => {
    const refused = await store.addRule(change as never).catch((error: unknown) => error)
    expect((refused as SettingsError).field).toBe(field)
    expect(await readdir(root)).toEqual(['workspace'])
  })
})
