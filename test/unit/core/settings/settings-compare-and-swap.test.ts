import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSettingsStore } from '../../../../src/main/core/settings/settings-store'
import { collectFixture, spawnFixture } from './fixtures/run-fixture'

let root: string
let home: string
let workspace: string

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'shellgate-cas-'))
  home = join(root, 'home')
  workspace = join(root, 'workspace')
  await mkdir(workspace)
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

const open = () => openSettingsStore({ home, workspace })
const onDisk = async (path: string) => JSON.parse(await readFile(path, 'utf8'))

describe('compare-and-swap settings writes', () => {
  it('two stores on one home: A adds deny rm:*, stale B saves a mode change, both survive', async () => {
    const a = await open()
    const b = await open()
    await a.addRule({ scope: 'user', list: 'deny', rule: 'rm:*' })
    // B never saw A's rule; its write is re-applied on the file as it is now.
    expect(b.user().permissions.deny).toEqual([])
    await b.updateUser({ permissions: { mode: 'plan' } })
    const saved = await onDisk(a.userFile)
    expect(saved.permissions).toMatchObject({ mode: 'plan', deny: ['rm:*'] })
    // B now acts on the merged settings, not its stale copy.
    expect(b.user().permissions).toMatchObject({ mode: 'plan', deny: ['rm:*'] })
    // And A's next write keeps B's mode.
    await a.addRule({ scope: 'user', list: 'allow', rule: 'git status' })
    expect((await onDisk(a.userFile)).permissions).toMatchObject({
      mode: 'plan',
      allow: ['git status'],
      deny: ['rm:*'],
    })
  })

  it('a stale remove takes out only its own rule and keeps rules added underneath', async () => {
    const a = await open()
    await a.addRule({ scope: 'workspace', list: 'deny', rule: 'curl:*' })
    const b = await open()
    await a.addRule({ scope: 'workspace', list: 'deny', rule: 'wget:*' })
    expect(await b.removeRule({ scope: 'workspace', list: 'deny', rule: 'curl:*' })).toBe(true)
    expect((await onDisk(a.workspaceFile)).permissions.deny).toEqual(['wget:*'])
  })

  it('a hand edit on disk between the read and the write survives the write', async () => {
    const store = await open()
    await store.updateUser({ limits: { defaultTimeoutMs: 60_000 } })
    const edited = await onDisk(store.userFile)
    edited.permissions.ask = ['git push:*']
    edited.shell = { kind: 'zsh' }
    await writeFile(store.userFile, JSON.stringify(edited))
    await store.addRule({ scope: 'user', list: 'deny', rule: 'rm:*' })
    const saved = await onDisk(store.userFile)
    expect(saved.permissions).toMatchObject({ ask: ['git push:*'], deny: ['rm:*'] })
    expect(saved.shell.kind).toBe('zsh')
    expect(saved.limits.defaultTimeoutMs).toBe(60_000)
  })

  it('refuses, with the reason and nothing written, when the file on disk is now broken', async () => {
    const store = await open()
    await store.addRule({ scope: 'user', list: 'deny', rule: 'rm:*' })
    await writeFile(store.userFile, '{"permissions": {"deny": ["rm:*", "dd:*"')
    await expect(store.updateUser({ permissions: { mode: 'yolo' } })).rejects.toMatchObject({
      code: 'unwritable',
      message: expect.stringMatching(
        /settings\.json as it is on disk now is not valid JSON.*; nothing was written over it/,
      ),
    })
    expect(await readFile(store.userFile, 'utf8')).toBe('{"permissions": {"deny": ["rm:*", "dd:*"')
    expect(store.user().permissions.mode).toBe('build')
    // No lock or temp file is left behind by the refusal.
    expect((await readdir(home)).sort()).toEqual(['settings.json'])
  })

  it('two processes adding rules at the same moment lose none of them', async () => {
    const count = 25
    await open()
    const startAt = `${Date.now() + 3_000}`
    await Promise.all(
      ['a', 'b'].map((writer) =>
        collectFixture(spawnFixture('rule-adder.ts', [home, workspace, writer, `${count}`, startAt])),
      ),
    )
    const deny: string[] = (await onDisk(join(home, 'settings.json'))).permissions.deny
    const expected = ['a', 'b'].flatMap((w) => Array.from({ length: count }, (_, n) => `${w}-${n}:*`))
    expect([...deny].sort()).toEqual(expected.sort())
    expect((await readdir(home)).sort()).toEqual(['settings.json'])
  }, 60_000)

  it('takes over a lock left by a writer that died, and refuses (not waits forever) while a live one holds it', async () => {
    const store = await open()
    await mkdir(home, { recursive: true })
    const lock = join(home, 'settings.json.lock')
    const dead = spawn('true')
    const deadPid = await new Promise<number>((resolve) => dead.once('exit', () => resolve(dead.pid!)))
    await writeFile(lock, `${deadPid}\n`)
    await store.addRule({ scope: 'user', list: 'deny', rule: 'rm:*' })
    expect((await onDisk(store.userFile)).permissions.deny).toEqual(['rm:*'])
    expect((await readdir(home)).sort()).toEqual(['settings.json'])

    const holder = spawn('sleep', ['60'])
    try {
      await writeFile(lock, `${holder.pid}\n`)
      await expect(store.updateUser({ permissions: { mode: 'plan' } })).rejects.toMatchObject({
        code: 'unwritable',
        message: expect.stringContaining('another Shellgate process is writing'),
      })
      expect((await onDisk(store.userFile)).permissions.mode).toBe('build')
    } finally {
      holder.kill('SIGKILL')
    }
  })
})
