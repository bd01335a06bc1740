import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { validateBashRule } from '../../../../src/main/core/permissions/rule-syntax'
import { openSettingsStore, type SettingsStore } from '../../../../src/main/core/settings/settings-store'
import type { SettingsWatcher } from '../../../../src/main/core/settings/settings-watcher'
import { createWorkspaceSettings } from '../../../../src/main/core/workbench/workspace-settings'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function tempDir(): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'sg-ws-watch-')))
  dirs.push(dir)
  return dir
}

async function saveWorkspaceDeny(workspace: string, rule: string): Promise<void> {
  await mkdir(join(workspace, '.shellgate'), { recursive: true })
  await writeFile(
    join(workspace, '.shellgate', 'settings.json'),
    JSON.stringify({ permissions: { deny: [rule] } }),
  )
}

describe("another workspace's store is handed out once its watch is attached", () => {
  it('an edit saved while the watch was being attached is in the store it hands out', async () => {
    const home = await tempDir()
    const mainWorkspace = await tempDir()
    const other = await tempDir()
    const main = await openSettingsStore({ home, workspace: mainWorkspace, validateRule: validateBashRule })
    const order: string[] = []
    const settings = createWorkspaceSettings({
      home,
      main,
      mainWorkspace,
      validateRule: validateBashRule,
      // The edit lands after the store's first read and before the watch sees anything: the
      // window in which an editor's save used to be missed until some later edit.
      watch: async (_store: SettingsStore): Promise<SettingsWatcher> => {
        await saveWorkspaceDeny(other, 'curl:*')
        order.push('attached')
        return { close: () => order.push('closed') }
      },
    })
    const store = await settings.storeFor(other)
    order.push('handed out')
    expect(order).toEqual(['attached', 'handed out'])
    expect(store.rules().map((rule) => rule.rule)).toContain('curl:*')
    settings.close()
    await new Promise((wake) => setImmediate(wake))
    expect(order).toEqual(['attached', 'handed out', 'closed'])
  })

  it('a store whose watch could not start is still handed out, as read', async () => {
    const home = await tempDir()
    const mainWorkspace = await tempDir()
    const other = await tempDir()
    await saveWorkspaceDeny(other, 'wget:*')
    const main = await openSettingsStore({ home, workspace: mainWorkspace, validateRule: validateBashRule })
    const settings = createWorkspaceSettings({
      home,
      main,
      mainWorkspace,
      validateRule: validateBashRule,
      watch: () => Promise.reject(new Error('no inotify watches left')),
    })
    const store = await settings.storeFor(other)
    expect(store.rules().map((rule) => rule.rule)).toContain('wget:*')
  })
})
