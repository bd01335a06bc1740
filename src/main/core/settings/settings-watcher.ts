import { type FSWatcher, watch } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { SettingsStore } from './settings-store'
import { WORKSPACE_SETTINGS_DIR } from './workspace-dir'

/** Editors and `git pull` write a file in several steps; one re-read after they settle is enough. */
export const SETTINGS_WATCH_DEBOUNCE_MS = 75

export interface SettingsWatcher {
  close(): void
}

/** What the watcher re-reads besides the two settings files: the trust records. */
export interface WatchedTrust {
  readonly file: string
  reload(): Promise<boolean>
}

/**
 * Keeps the hub's settings equal to the files on disk: the user settings, the workspace's
 * `.shellgate/settings.json`, this machine's rules for the workspace (SHELLGATE_HOME/workspaces)
 * and the trust records. The parent folders are watched, not the files,
 * because an atomic replace (ours, an editor's, git's) swaps the inode a file watch would follow.
 * A bad edit is reported through `onProblem` and the last good settings stay in force (the store's
 * reload). `.shellgate` may appear, vanish or be replaced later, so its watch is re-attached then.
 */
export async function watchSettingsFiles(input: {
  store: SettingsStore
  trust: WatchedTrust
  onProblem: (message: string) => void
}): Promise<SettingsWatcher> {
  const { store, trust } = input
  const homeDir = dirname(store.userFile)
  const homeNames = new Set([basename(store.userFile), basename(trust.file)])
  const workspaceDir = store.workspaceDir
  const dotDir = join(workspaceDir, WORKSPACE_SETTINGS_DIR)
  const localDir = dirname(store.localFile)
  const localName = basename(store.localFile)
  const watchers = new Map<string, FSWatcher>()
  let timer: NodeJS.Timeout | null = null
  let running: Promise<void> = Promise.resolve()
  let closed = false

  const reloadAll = async () => {
    try {
      const { problems } = await store.reload()
      for (const problem of problems) input.onProblem(`${problem.file} ${problem.reason}`)
      await trust.reload()
    } catch (error) {
      input.onProblem(`settings could not be re-read: ${(error as Error).message}`)
    }
  }
  const schedule = () => {
    if (closed) return
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => {
      timer = null
      running = running.then(reloadAll)
    }, SETTINGS_WATCH_DEBOUNCE_MS)
  }

  const attach = (dir: string, relevant: (name: string | null) => boolean) => {
    if (closed || watchers.has(dir)) return
    let watcher: FSWatcher
    try {
      watcher = watch(dir, { persistent: false }, (_event, name) => {
        if (dir === workspaceDir && name === WORKSPACE_SETTINGS_DIR) reattachDotDir()
        if (relevant(name === null ? null : String(name))) schedule()
      })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      // A folder that does not exist yet is watched from its parent; anything else is reported.
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        input.onProblem(`${dir} cannot be watched (${code ?? 'error'}); edits there apply after a restart`)
      return
    }
    // The folder itself went away (or was swapped): drop the watch; its parent re-attaches it.
    watcher.on('error', () => detach(dir))
    watchers.set(dir, watcher)
  }
  const detach = (dir: string) => {
    watchers.get(dir)?.close()
    watchers.delete(dir)
  }
  const reattachDotDir = () => {
    // A symlinked `.shellgate` is refused by the store; it is not watched either.
    detach(dotDir)
    attach(dotDir, (name) => name === null || name === 'settings.json')
    schedule()
  }

  await mkdir(homeDir, { recursive: true, mode: 0o700 })
  await mkdir(localDir, { recursive: true, mode: 0o700 })
  attach(homeDir, (name) => name === null || homeNames.has(name))
  attach(localDir, (name) => name === null || name === localName)
  attach(workspaceDir, (name) => name === null || name === WORKSPACE_SETTINGS_DIR)
  attach(dotDir, (name) => name === null || name === 'settings.json')
  return {
    close() {
      closed = true
      if (timer) clearTimeout(timer)
      timer = null
      for (const dir of [...watchers.keys()]) detach(dir)
    },
  }
}
