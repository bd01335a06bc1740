import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCliCaptured } from './run-cli'

/**
 * `shellgate exec` reads the workspace's settings with the app's checks. A refused file may be a
 * symlink to someone's secret, so not one byte of it may show up in what the CLI prints.
 */
const SECRET = 'SECRET-MARKER-b7e2d4'
let root: string
let home: string
let workspace: string

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'shellgate-cli-settings-'))
  home = join(root, 'home')
  workspace = join(root, 'ws')
  await mkdir(home)
  await mkdir(workspace)
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

const exec = () =>
  runCliCaptured(['exec', '--json', '--mode', 'yolo', '--cwd', workspace, '--', 'touch ran'], {
    env: { PATH: process.env.PATH ?? '', SHELLGATE_HOME: home, HOME: home },
    cwd: root,
  })

async function expectRefused(reason: RegExp) {
  const outcome = await exec()
  expect(outcome.code).toBe(2)
  expect(outcome.stderr).toMatch(reason)
  expect(outcome.stderr + outcome.stdout).not.toContain(SECRET)
  expect(existsSync(join(workspace, 'ran'))).toBe(false)
}

describe('shellgate exec and an unsafe workspace settings file', () => {
  it('refuses a symlinked .shellgate/settings.json without reading its target', async () => {
    const target = join(root, 'id_secret')
    // Not JSON, so a parser error quoting the text would leak the marker.
    await writeFile(target, `${SECRET} private key material`)
    await mkdir(join(workspace, '.shellgate'))
    await symlink(target, join(workspace, '.shellgate', 'settings.json'))
    await expectRefused(/settings\.json is unusable \(is a symlink, not a regular file/)
  })

  it('refuses a symlinked .shellgate folder', async () => {
    const elsewhere = join(root, 'elsewhere')
    await mkdir(elsewhere)
    await writeFile(join(elsewhere, 'settings.json'), JSON.stringify({ permissions: { allow: [SECRET] } }))
    await symlink(elsewhere, join(workspace, '.shellgate'))
    await expectRefused(/\.shellgate is a symlink, which is refused/)
  })

  it('refuses a broken file without quoting it', async () => {
    await mkdir(join(workspace, '.shellgate'))
    await writeFile(join(workspace, '.shellgate', 'settings.json'), `{"permissions": ${SECRET}}`)
    await expectRefused(/settings\.json is unusable \(is not valid JSON/)
  })

  it('refuses a symlinked user settings file the same way', async () => {
    const target = join(root, 'token.txt')
    await writeFile(target, `{"${SECRET}": true,`)
    await symlink(target, join(home, 'settings.json'))
    await expectRefused(/home\/settings\.json is unusable \(is a symlink/)
  })
})
