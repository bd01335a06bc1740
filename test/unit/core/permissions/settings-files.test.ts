import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  readCommandSettings,
  readSettingsFile,
  SETTINGS_FILE_MAX_BYTES,
  SettingsFileError,
} from '../../../../src/main/core/permissions/settings-files'
import { UserSettingsSchema } from '../../../../src/shared/settings'

describe('reading the settings files for a one-shot command', () => {
  let root: string
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'shellgate-settings-files-'))
  })
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('missing files are the defaults; rules come back per file, workspace first', async () => {
    const home = join(root, 'home')
    const ws = join(root, 'ws')
    await mkdir(join(ws, '.shellgate'), { recursive: true })
    await mkdir(home)
    expect((await readCommandSettings(home, ws)).user.permissions.mode).toBe('build')
    await writeFile(
      join(home, 'settings.json'),
      JSON.stringify({ permissions: { mode: 'plan', deny: ['rm:*'] } }),
    )
    await writeFile(
      join(ws, '.shellgate', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['npm test:*'] } }),
    )
    const settings = await readCommandSettings(home, ws)
    expect(settings.user.permissions.mode).toBe('plan')
    expect(settings.ruleSets).toEqual([
      {
        source: 'local',
        file: expect.stringMatching(new RegExp(`^${home}/workspaces/[0-9a-f]{32}\\.json$`)),
        rules: { allow: [], ask: [], deny: [] },
      },
      {
        source: 'workspace',
        file: join(ws, '.shellgate', 'settings.json'),
        rules: { allow: ['npm test:*'], ask: [], deny: [] },
      },
      { source: 'user', file: join(home, 'settings.json'), rules: { allow: [], ask: [], deny: ['rm:*'] } },
    ])
  })

  it.each([
    ['not JSON', '{"permissions": ', 'is not valid JSON'],
    ['the wrong shape', '{"permissions": {"mode": "fast"}}', 'permissions.mode'],
    ['too big', ' '.repeat(SETTINGS_FILE_MAX_BYTES + 1), `over the ${SETTINGS_FILE_MAX_BYTES}-byte limit`],
  ])('a file that is %s is refused, and left where it is', async (_name, text, reason) => {
    const file = join(root, `bad-${reason.length}.json`)
    await writeFile(file, text)
    const error = await readSettingsFile(file, UserSettingsSchema).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SettingsFileError)
    expect((error as Error).message).toContain(reason)
    expect((error as SettingsFileError).file).toBe(file)
    await expect(readSettingsFile(file, UserSettingsSchema)).rejects.toThrow(reason)
  })

  it('a directory where the file should be is refused', async () => {
    const dir = join(root, 'dir.json')
    await mkdir(dir)
    await expect(readSettingsFile(dir, UserSettingsSchema)).rejects.toThrow('not a regular file')
  })
})
