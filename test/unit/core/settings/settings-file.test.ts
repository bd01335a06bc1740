import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadSettingsFile } from '../../../../src/main/core/settings/settings-file'
import { defaultUserSettings, UserSettingsSchema } from '../../../../src/shared/settings'

let dir: string
let file: string
const NOW = new Date('2026-11-30T02:40:00.123Z')

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shellgate-settings-file-'))
  file = join(dir, 'settings.json')
})

afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('loadSettingsFile', () => {
  it('uses the defaults without a warning when the file does not exist', async () => {
    expect(await loadSettingsFile(file, UserSettingsSchema, NOW)).toEqual({
      value: defaultUserSettings(),
      warning: null,
      read: { state: 'missing', hash: null },
    })
  })

  it('reads a valid file and fills the defaults it leaves out', async () => {
    await writeFile(file, JSON.stringify({ permissions: { mode: 'plan', allow: ['git status'] } }))
    const { value, warning } = await loadSettingsFile(file, UserSettingsSchema, NOW)
    expect(warning).toBeNull()
    expect(value.permissions).toEqual({ mode: 'plan', allow: ['git status'], ask: [], deny: [] })
    expect(value.limits.defaultTimeoutMs).toBe(120_000)
  })

  it('keeps a file that is not JSON as .bak, uses the defaults and says why', async () => {
    await writeFile(file, '{"shell": ')
    const { value, warning } = await loadSettingsFile(file, UserSettingsSchema, NOW)
    expect(value).toEqual(defaultUserSettings())
    expect(warning).toMatchObject({ file, backupPath: `${file}.bak` })
    expect(warning?.reason).toMatch(/^is not valid JSON/)
    expect(await readFile(`${file}.bak`, 'utf8')).toBe('{"shell": ')
    expect(await readdir(dir)).toEqual(['settings.json.bak'])
  })

  it('names the invalid field of a file that does not match the schema', async () => {
    await writeFile(file, JSON.stringify({ permissions: { mode: 'reckless' } }))
    const { warning } = await loadSettingsFile(file, UserSettingsSchema, NOW)
    expect(warning?.reason).toMatch(/^does not match the settings schema: permissions\.mode: /)
  })

  it('never replaces an earlier backup: the next one is timestamped', async () => {
    await writeFile(`${file}.bak`, 'first corrupt file')
    await writeFile(file, 'second corrupt file')
    const { warning } = await loadSettingsFile(file, UserSettingsSchema, NOW)
    const stamped = `${file}.2026-11-30T02-40-00-123Z.bak`
    expect(warning?.backupPath).toBe(stamped)
    expect(await readFile(`${file}.bak`, 'utf8')).toBe('first corrupt file')
    expect(await readFile(stamped, 'utf8')).toBe('second corrupt file')

    await writeFile(file, 'third corrupt file')
    const third = await loadSettingsFile(file, UserSettingsSchema, NOW)
    expect(third.warning?.backupPath).toBe(`${file}.2026-11-30T02-40-00-123Z-1.bak`)
    expect((await readdir(dir)).sort()).toHaveLength(3)
  })

  it('refuses a symlink instead of following it, and keeps the link as the backup', async () => {
    const elsewhere = join(dir, 'elsewhere.json')
    await writeFile(elsewhere, JSON.stringify({ permissions: { mode: 'yolo' } }))
    await symlink(elsewhere, file)
    const { value, warning } = await loadSettingsFile(file, UserSettingsSchema, NOW)
    expect(value.permissions.mode).toBe('build')
    expect(warning?.reason).toMatch(/not a regular file/)
    expect(await readFile(elsewhere, 'utf8')).toContain('yolo')
  })

  it('refuses a directory in place of the file', async () => {
    await mkdir(file)
    const { warning } = await loadSettingsFile(file, UserSettingsSchema, NOW)
    expect(warning).toMatchObject({ backupPath: `${file}.bak` })
  })
})
