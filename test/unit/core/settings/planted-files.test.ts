import { execFileSync } from 'node:child_process'
import { constants } from 'node:fs'
import { mkdir, mkdtemp, open, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readCommandSettings } from '../../../../src/main/core/permissions/settings-files'
import { createSessionStore } from '../../../../src/main/core/sessions/session-store'
import { createAuditLog } from '../../../../src/main/core/settings/audit-log'
import { openSettingsStore } from '../../../../src/main/core/settings/settings-store'
import { createCwdCaptureFile, readCapturedCwd } from '../../../../src/main/core/shell/cwd-capture'
import { startCore } from '../workbench/core-harness'

/**
 * Plants in SHELLGATE_HOME (or a workspace): a FIFO, whose blocking open() would hang the process
 * (even process.exit), and a symlink, which would have us write to or leak another file.
 */
let root: string
let home: string
let workspace: string
const SECRET = 'SECRET-MARKER-5f1c9e'

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'shellgate-plants-'))
  home = join(root, 'home')
  workspace = join(root, 'workspace')
  await mkdir(home, { recursive: true })
  await mkdir(workspace)
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

const mkfifo = (path: string) => execFileSync('mkfifo', ['-m', '0600', path])

/**
 * Fails (instead of hanging the run) when `work` blocks on the FIFO: after the guard, the FIFO's
 * other end is opened O_RDWR (which never blocks on Linux), releasing any blocked open() so the
 * worker can still exit, and the test fails with the reason.
 */
async function withoutHanging<T>(fifo: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(async () => {
      const release = await open(fifo, constants.O_RDWR | constants.O_NONBLOCK)
      setTimeout(() => void release.close(), 1_000)
      reject(new Error(`blocked on the FIFO ${fifo}`))
    }, 4_000)
  })
  try {
    return await Promise.race([work.then((value) => value), hung])
  } finally {
    clearTimeout(timer)
  }
}

const entry = {
  session: 's1',
  command: 'echo hi',
  cwd: '/work',
  shell: '/bin/bash',
  verdict: 'allow' as const,
  decidedBy: 'read_only' as const,
  rule: null,
  ruleFile: null,
  approvedBy: null,
  status: 'completed' as const,
  exitCode: 0,
  durationMs: 1,
  bytes: 2,
}

describe('the audit log', () => {
  it('a FIFO in its place: append and read are refused with a warning, nothing blocks', async () => {
    const refusals: string[] = []
    const log = createAuditLog({ home, onRefused: (message) => refusals.push(message) })
    mkfifo(log.file)
    await expect(withoutHanging(log.file, log.append(entry))).rejects.toThrow(
      /audit\.jsonl is not a regular file .*this command's audit line was not written/,
    )
    expect(refusals).toEqual([expect.stringContaining(`the audit log ${log.file} is not a regular file`)])
    await expect(withoutHanging(log.file, log.read())).rejects.toThrow(/not a regular file/)
    expect((await stat(log.file)).isFIFO()).toBe(true)
  })

  it('a FIFO with a reader waiting: still refused, and no byte reaches the reader', async () => {
    const log = createAuditLog({ home })
    mkfifo(log.file)
    // A planted reader makes a write-only open succeed; the fstat check must still refuse it.
    const reader = await open(log.file, constants.O_RDONLY | constants.O_NONBLOCK)
    try {
      await expect(withoutHanging(log.file, log.append(entry))).rejects.toThrow(/not a regular file/)
      const buffer = Buffer.alloc(64)
      // Nothing was written: the read finds no data (EOF, or EAGAIN while nobody holds it open).
      const read = await reader.read(buffer, 0, 64, null).then(
        (result) => result.bytesRead,
        (error: NodeJS.ErrnoException) => error.code,
      )
      expect([0, 'EAGAIN']).toContain(read)
    } finally {
      await reader.close()
    }
  })

  it('a symlink in its place: refused, the target is neither written nor read', async () => {
    const target = join(root, 'target.jsonl')
    await writeFile(target, `${SECRET}\n`)
    const log = createAuditLog({ home })
    await symlink(target, log.file)
    await expect(log.append(entry)).rejects.toThrow(/is a symlink/)
    await expect(log.read()).rejects.toThrow(/is a symlink/)
    expect(await readFile(target, 'utf8')).toBe(`${SECRET}\n`)
  })
})

describe('session files', () => {
  it('a FIFO or symlink under a record name is refused with a warning; list skips them', async () => {
    const refusals: string[] = []
    const store = createSessionStore(home, undefined, { onRefused: (m) => refusals.push(m) })
    await mkdir(store.dir, { recursive: true })
    const shell = {
      dialect: 'bash',
      path: '/bin/bash',
      source: 'system',
      reason: 'test',
      envOverlay: {},
    } as const
    const real = await store.create({ workspace, shell, id: 'real' })
    const fifo = join(store.dir, 'fifo.json')
    mkfifo(fifo)
    const target = join(root, 'secret.json')
    await writeFile(target, JSON.stringify({ ...real, id: 'linked', title: SECRET }))
    await symlink(target, join(store.dir, 'linked.json'))

    await expect(withoutHanging(fifo, store.load('fifo'))).rejects.toThrow(/fifo\.json is not a regular file/)
    const error = await store.load('linked').catch((e: Error) => e)
    expect(String(error)).toMatch(/linked\.json is a symlink/)
    expect(String(error)).not.toContain(SECRET)
    const listed = await withoutHanging(fifo, store.list())
    expect(listed.map((r) => r.id)).toEqual(['real'])
    expect(refusals.length).toBeGreaterThanOrEqual(2)
    // Removing a planted name unlinks it without opening it.
    expect(await withoutHanging(fifo, store.remove('fifo'))).toBe(true)
    expect(await readFile(target, 'utf8')).toContain(SECRET)
  })
})

describe('settings files', () => {
  it('a FIFO as the user or workspace settings: the store opens on defaults with a warning', async () => {
    const userFile = join(home, 'settings.json')
    const workspaceFile = join(workspace, '.shellgate', 'settings.json')
    await mkdir(join(workspace, '.shellgate'))
    mkfifo(userFile)
    mkfifo(workspaceFile)
    const store = await withoutHanging(userFile, openSettingsStore({ home, workspace }))
    expect(store.user().permissions.mode).toBe('build')
    const warnings = store.warnings()
    expect(warnings.map((w) => w.file).sort()).toEqual([userFile, workspaceFile].sort())
    expect(warnings.every((w) => /not a regular file/.test(w.reason))).toBe(true)
    // The repository's FIFO is left where it is, and a write to it is refused, not blocked.
    await expect(
      withoutHanging(workspaceFile, store.addRule({ scope: 'workspace', list: 'deny', rule: 'rm:*' })),
    ).rejects.toMatchObject({ code: 'unwritable', message: expect.stringMatching(/not a regular file/) })
    expect((await stat(workspaceFile)).isFIFO()).toBe(true)
  })

  it('the CLI refuses a FIFO or a symlink without blocking and without quoting the target', async () => {
    const workspaceFile = join(workspace, '.shellgate', 'settings.json')
    await mkdir(join(workspace, '.shellgate'))
    mkfifo(workspaceFile)
    await expect(withoutHanging(workspaceFile, readCommandSettings(home, workspace))).rejects.toThrow(
      `${workspaceFile} is unusable (is not a regular file`,
    )
    await rm(workspaceFile)
    const target = join(root, 'secret.txt')
    await writeFile(target, `{"permissions": {"allow": ["${SECRET}"]}}`)
    await symlink(target, workspaceFile)
    const error = await readCommandSettings(home, workspace).catch((e: Error) => e)
    expect(String(error)).toMatch(/is a symlink/)
    expect(String(error)).not.toContain(SECRET)
  })
})

describe('cwd capture files (exec/cwd)', () => {
  it('are created 0600 before the shell writes, stay 0600, and are removed after use', async () => {
    const file = await createCwdCaptureFile(home)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect((await stat(join(home, 'exec', 'cwd'))).mode & 0o777).toBe(0o700)
    // What the shell does: `pwd -P >| file`, with a wide umask.
    execFileSync('/bin/bash', ['-c', `umask 000; cd /tmp && pwd -P >| '${file}'`])
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect(await readCapturedCwd(file)).toBe('/tmp')
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('a FIFO put in place of a capture file is not blocked on, and is removed', async () => {
    const file = join(home, 'exec', 'cwd', 'cwd-planted')
    await mkdir(join(home, 'exec', 'cwd'), { recursive: true })
    mkfifo(file)
    expect(await withoutHanging(file, readCapturedCwd(file))).toBeNull()
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' })
  })
})

describe('a running core with a FIFO planted as its audit log', () => {
  it('runs on without hanging and tells the person with an app.notice', async () => {
    const harness = await startCore()
    try {
      await harness.core.settings.updateUser({ permissions: { mode: 'yolo' } })
      const file = join(harness.home, 'audit.jsonl')
      mkfifo(file)
      // The call settles either way (its line could not be written); what matters is that it does.
      await withoutHanging(
        file,
        harness.core.bash.run(harness.sessionId, { command: 'true' }).catch(() => null),
      )
      const notice = harness.events.find((event) => event.name === 'app.notice')
      expect(notice?.payload).toEqual({
        level: 'warning',
        message: `the audit log ${file} is not a regular file (a FIFO, device or folder), which is refused; nothing was read or written through it; this command's audit line was not written`,
      })
    } finally {
      await harness.dispose()
    }
  })
})
