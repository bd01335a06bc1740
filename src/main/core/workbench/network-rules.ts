import { NetworkPatternSchema, type WorkspaceNetworkSettings } from '../../../shared/settings'
import type { NetworkRule, NetworkRuleScope, NetworkRuleSet } from '../sandbox/egress-policy'
import { networkRuleSet } from '../sandbox/network-rule-set'
import { workspaceRealPath, workspaceRealPathSync } from '../settings/local-workspace-rules'
import { SettingsError } from '../settings/settings-error'
import type { SettingsStore } from '../settings/settings-store'
import {
  readWorkspaceNetworkSync,
  updateWorkspaceNetwork,
  type WorkspaceNetworkRead,
} from '../settings/workspace-network-file'

export const NETWORK_RULE_SCOPES: readonly NetworkRuleScope[] = ['session', 'local', 'user']

export interface NetworkRuleChange {
  scope: NetworkRuleScope
  list: 'allow' | 'deny'
  pattern: string
  sessionId: string
  workspace: string
}

/** What one command's network gets from the person's settings. */
export interface CommandNetwork {
  rules: () => NetworkRuleSet
  allowedPorts: number[]
  /** The workspace file is unusable (then it allows nothing), or null. */
  problem: string | null
}

export interface NetworkRules {
  forCommand(sessionId: string, workspace: string): Promise<CommandNetwork>
  workspace(workspace: string): Promise<WorkspaceNetworkRead>
  /** Validated in full (the schema, then Shellgate's own ports) before anything is written. */
  setWorkspace(
    workspace: string,
    next: Pick<WorkspaceNetworkSettings, 'allowedPorts' | 'allowlist' | 'denylist'>,
  ): Promise<WorkspaceNetworkRead>
  /** Saves a network rule (an "always" card); the repository's own file is never a scope. */
  add(change: NetworkRuleChange): Promise<NetworkRule>
  closeSession(sessionId: string): void
}

/**
 * Network rules have the scopes command rules have, minus the repository: this session (in
 * memory), this workspace on this machine (SHELLGATE_HOME/workspaces/<hash>.network.json) and
 * every workspace (settings.json sandbox.allowlist / denylist). Rules are read live at each
 * connection, so one saved on one card answers the next connection of every command.
 */
export function createNetworkRules(options: {
  home: string
  settings: SettingsStore
  portRefusal: (port: number) => Promise<string | null>
}): NetworkRules {
  const sessions = new Map<string, { allowlist: string[]; denylist: string[] }>()
  const locals = new Map<string, WorkspaceNetworkRead>()
  const userFile = options.settings.userFile

  // Once per networked command, before it starts: without the thread pool (readWorkspaceNetworkSync).
  const readLocalAt = (real: string) => {
    const read = readWorkspaceNetworkSync(options.home, real)
    locals.set(real, read)
    return read
  }
  const readLocal = async (workspace: string) => readLocalAt(workspaceRealPathSync(workspace))

  return {
    async forCommand(sessionId, workspace) {
      const real = workspaceRealPathSync(workspace)
      const first = readLocalAt(real)
      return {
        allowedPorts: first.value.allowedPorts,
        problem: first.problem,
        rules: () => {
          const local = locals.get(real) ?? first
          const session = sessions.get(sessionId)
          return networkRuleSet([
            ...(session ? [{ scope: 'session' as const, source: `session:${sessionId}`, ...session }] : []),
            { scope: 'local', source: local.file, ...local.value },
            { scope: 'user', source: userFile, ...options.settings.user().sandbox },
          ])
        },
      }
    },
    workspace: readLocal,
    async setWorkspace(workspace, next) {
      for (const [index, port] of next.allowedPorts.entries()) {
        const refusal = Number.isInteger(port) ? await options.portRefusal(port) : null
        if (refusal) throw new SettingsError(`allowedPorts.${index}`, refusal)
      }
      const written = await updateWorkspaceNetwork(options.home, workspace, (fresh) => ({
        ...fresh,
        ...next,
      }))
      locals.set(await workspaceRealPath(workspace), written)
      return written
    },
    async add(change) {
      if (!NETWORK_RULE_SCOPES.includes(change.scope)) {
        throw new SettingsError(
          'scope',
          "network rules are kept on this machine: this session, this workspace (local) or all workspaces (user), never the repository's file",
        )
      }
      const parsed = NetworkPatternSchema.safeParse(change.pattern)
      if (!parsed.success) throw new SettingsError('rule', parsed.error.issues[0]?.message ?? 'not a domain')
      const pattern = parsed.data
      const field = change.list === 'allow' ? 'allowlist' : 'denylist'
      const add = (list: readonly string[]) => (list.includes(pattern) ? [...list] : [...list, pattern])
      if (change.scope === 'session') {
        const current = sessions.get(change.sessionId) ?? { allowlist: [], denylist: [] }
        sessions.set(change.sessionId, { ...current, [field]: add(current[field]) })
        return { pattern, scope: 'session', source: `session:${change.sessionId}` }
      }
      if (change.scope === 'local') {
        const written = await updateWorkspaceNetwork(options.home, change.workspace, (fresh) => ({
          ...fresh,
          [field]: add(fresh[field]),
        }))
        locals.set(await workspaceRealPath(change.workspace), written)
        return { pattern, scope: 'local', source: written.file }
      }
      const sandbox = options.settings.user().sandbox
      await options.settings.updateUser({ sandbox: { [field]: add(sandbox[field]) } })
      return { pattern, scope: 'user', source: userFile }
    },
    closeSession(sessionId) {
      sessions.delete(sessionId)
    },
  }
}
