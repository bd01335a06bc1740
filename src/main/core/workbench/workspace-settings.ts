import type { ScopedRule } from '../settings/scoped-rules'
import { openSettingsStore, type SettingsStore } from '../settings/settings-store'
import type { SettingsWatcher } from '../settings/settings-watcher'

/**
 * Sessions may live in other workspaces than the core's (an agent names its own). Each workspace
 * has its own `.shellgate/settings.json` and trust; user settings and session rules stay in the
 * core's one store, so there is still one copy of the user's settings in memory.
 */
export interface WorkspaceSettings {
  /** The store that owns this workspace's file: the core's own store for the core's workspace. */
  storeFor(workspace: string): Promise<SettingsStore>
  /** The rules in effect for a session whose workspace `store` holds, in the store's order: session, local, workspace, user. */
  rulesIn(store: SettingsStore, sessionId: string): WorkspaceRules
  /** rulesIn, for a workspace whose store may not be open yet. */
  rulesFor(sessionId: string, workspace: string): Promise<WorkspaceRules>
  /** Stops watching the other workspaces' files. */
  close(): void
}

export interface WorkspaceRules {
  rules: ScopedRule[]
  workspaceFile: string
  workspaceDir: string
  workspaceAllow: string[]
}

export function createWorkspaceSettings(options: {
  home: string
  main: SettingsStore
  /** The core's workspace, resolved through symlinks like session workspaces are. */
  mainWorkspace: string
  validateRule: (rule: string) => string | null
  /**
   * Keeps an opened store equal to its files on disk, as the core's own store is: a rule edited
   * in another workspace's file applies without a restart.
   */
  watch?: (store: SettingsStore) => Promise<SettingsWatcher>
}): WorkspaceSettings {
  const { main } = options
  const stores = new Map<string, Promise<SettingsStore>>()
  const watchers = new Set<Promise<SettingsWatcher | null>>()
  let closed = false
  const storeFor = (workspace: string): Promise<SettingsStore> => {
    if (workspace === options.mainWorkspace) return Promise.resolve(main)
    let store = stores.get(workspace)
    if (!store) {
      const opening = openSettingsStore({ home: options.home, workspace, validateRule: options.validateRule })
      store = options.watch && !closed ? opening.then((opened) => watched(opened, options.watch!)) : opening
      // A workspace that failed to open is tried again next time (it may have been fixed).
      store.catch(() => stores.delete(workspace))
      stores.set(workspace, store)
    }
    return store
  }
  /**
   * The store is handed out only once its watch is attached, and read once more then: an edit
   * saved right after the first decision (or while the store was opening) is not missed until
   * some later edit wakes the watch.
   */
  const watched = async (
    store: SettingsStore,
    watch: (store: SettingsStore) => Promise<SettingsWatcher>,
  ): Promise<SettingsStore> => {
    const watcher = watch(store).catch(() => null)
    watchers.add(watcher)
    const attached = await watcher
    if (closed) attached?.close()
    else if (attached) await store.reload().catch(() => undefined)
    return store
  }
  const rulesIn = (store: SettingsStore, sessionId: string): WorkspaceRules => {
    // Trust is checked against the exact allow list of the workspace's file, as it is now.
    const trustInput = {
      workspaceFile: store.workspaceFile,
      workspaceDir: store.workspaceDir,
      workspaceAllow: store.workspace().permissions.allow,
    }
    if (store === main) return { rules: main.rules(sessionId), ...trustInput }
    // Session and user rules live in the core's store; this machine's and the repository's
    // rules for the workspace live in its own.
    const core = main.rules(sessionId)
    return {
      rules: [
        ...core.filter((rule) => rule.scope === 'session'),
        ...store.rules().filter((rule) => rule.scope === 'local' || rule.scope === 'workspace'),
        ...core.filter((rule) => rule.scope === 'user'),
      ],
      ...trustInput,
    }
  }
  return {
    storeFor,
    rulesIn,
    async rulesFor(sessionId, workspace) {
      return rulesIn(await storeFor(workspace), sessionId)
    },
    close() {
      closed = true
      for (const watcher of watchers) void watcher.then((opened) => opened?.close())
      watchers.clear()
    },
  }
}
