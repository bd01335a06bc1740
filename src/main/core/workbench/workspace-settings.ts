import type { ScopedRule } from '../settings/scoped-rules'
import { openSettingsStore, type SettingsStore } from '../settings/settings-store'

/**
 * Sessions may live in other workspaces than the core's (an agent names its own). Each workspace
 * has its own `.shellgate/settings.json` and trust; user settings and session rules stay in the
 * core's one store, so there is still one copy of the user's settings in memory.
 */
export interface WorkspaceSettings {
  /** The store that owns this workspace's file: the core's own store for the core's workspace. */
  storeFor(workspace: string): Promise<SettingsStore>
  /** The rules in effect for a session in `workspace`, in the store's order: session, workspace, user. */
  rulesFor(sessionId: string, workspace: string): Promise<{ rules: ScopedRule[]; workspaceFile: string }>
}

export function createWorkspaceSettings(options: {
  home: string
  main: SettingsStore
  /** The core's workspace, resolved through symlinks like session workspaces are. */
  mainWorkspace: string
  validateRule: (rule: string) => string | null
}): WorkspaceSettings {
  const { main } = options
  const stores = new Map<string, Promise<SettingsStore>>()
  const storeFor = (workspace: string): Promise<SettingsStore> => {
    if (workspace === options.mainWorkspace) return Promise.resolve(main)
    let store = stores.get(workspace)
    if (!store) {
      store = openSettingsStore({ home: options.home, workspace, validateRule: options.validateRule })
      // A workspace that failed to open is tried again next time (it may have been fixed).
      store.catch(() => stores.delete(workspace))
      stores.set(workspace, store)
    }
    return store
  }
  return {
    storeFor,
    async rulesFor(sessionId, workspace) {
      const store = await storeFor(workspace)
      if (store === main) return { rules: main.rules(sessionId), workspaceFile: main.workspaceFile }
      const core = main.rules(sessionId)
      return {
        rules: [
          ...core.filter((rule) => rule.scope === 'session'),
          ...store.rules().filter((rule) => rule.scope === 'workspace'),
          ...core.filter((rule) => rule.scope === 'user'),
        ],
        workspaceFile: store.workspaceFile,
      }
    },
  }
}
