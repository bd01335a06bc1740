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
  /** The rules in effect for a session whose workspace `store` holds, in the store's order: session, local, workspace, user. */
  rulesIn(store: SettingsStore, sessionId: string): WorkspaceRules
  /** rulesIn, for a workspace whose store may not be open yet. */
  rulesFor(sessionId: string, workspace: string): Promise<WorkspaceRules>
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
  }
}
