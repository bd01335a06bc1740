import type { ShellgateContract } from '../../../shared/ipc/contract'
import type { SettingsSnapshot } from '../../../shared/ipc/domains/settings'
import { RpcError } from '../../../shared/ipc/errors'
import type { Core } from '../../core/app'
import { broadRuleProblem } from '../../core/permissions/broad-rules'
import { nodeShellFs } from '../../core/shell/shell-fs'
import { validateNetworkSettings } from '../../core/network/validate-network-settings'
import type { Handlers } from '../dispatcher'

type SettingsHandlers = Pick<
  Handlers<ShellgateContract>,
  | 'settings.get'
  | 'settings.setMode'
  | 'settings.setShell'
  | 'settings.setNetwork'
  | 'settings.setLimits'
  | 'settings.setEnvironment'
  | 'settings.addRule'
  | 'settings.removeRule'
  | 'settings.trustWorkspaceRules'
>

const UNTRUSTED_RULES_NAMED = 20

export function settingsHandlers(core: Core): SettingsHandlers {
  const { settings } = core
  const snapshot = (sessionId?: string): SettingsSnapshot => {
    const allow = settings.workspace().permissions.allow
    const trust = core.trust.state(settings.workspaceDir, allow)
    const rules = settings.rules(sessionId).map((rule) => ({
      ...rule,
      trusted: !(rule.scope === 'workspace' && rule.list === 'allow') || trust.trusted,
      broad: rule.list === 'allow' ? broadRuleProblem(rule.rule) : null,
    }))
    const untrustedRules = rules
      .filter((rule) => !rule.trusted)
      .map((rule) =>
        rule.broad
          ? `"${rule.rule}" (careful: ${rule.broad.replace(`"${rule.rule}" `, '')})`
          : `"${rule.rule}"`,
      )
    // Named one by one up to a point: a hostile file can hold a thousand of them.
    const untrusted =
      untrustedRules.length > UNTRUSTED_RULES_NAMED
        ? [
            ...untrustedRules.slice(0, UNTRUSTED_RULES_NAMED),
            `and ${untrustedRules.length - UNTRUSTED_RULES_NAMED} more`,
          ]
        : untrustedRules
    const warnings = settings
      .warnings()
      .map((w) => ({ file: w.file, message: w.reason, backup: w.backupPath }))
    if (untrusted.length > 0) {
      warnings.push({
        file: settings.workspaceFile,
        message: `this workspace's own settings allow ${untrusted.join(', ')} without asking; a repository's rules are ignored until you trust them in Settings → Permissions`,
        backup: null,
      })
    }
    return {
      user: settings.user(),
      workspace: settings.workspace(),
      rules,
      warnings,
      files: { user: settings.userFile, workspace: settings.workspaceFile, local: settings.localFile },
      trust,
    }
  }
  return {
    'settings.get': ({ sessionId }) => snapshot(sessionId),
    'settings.setMode': async ({ mode }) => {
      await settings.updateUser({ permissions: { mode } })
      return snapshot()
    },
    'settings.setShell': async ({ kind, path }) => {
      // Refused here rather than saved and silently replaced by another shell at the next session.
      const kinds = core.platform === 'win32' ? ['auto', 'git-bash', 'cmd'] : ['auto', 'bash', 'zsh']
      if (!kinds.includes(kind)) {
        throw new RpcError(
          'invalid_input',
          `settings.setShell: kind: "${kind}" is not offered on ${core.platform}; choose ${kinds.join(', ')}`,
        )
      }
      if (path?.trim() && !nodeShellFs.isExecutable(path.trim())) {
        throw new RpcError(
          'invalid_input',
          `settings.setShell: path: ${path.trim()} is not an executable file`,
        )
      }
      // null clears a path left over from an earlier explicit choice.
      await settings.updateUser({ shell: { kind, path: path?.trim() ? path.trim() : null } } as never)
      return snapshot()
    },
    'settings.setNetwork': async (network) => {
      const text = (value: string) => (value.trim() === '' ? null : value.trim())
      validateNetworkSettings({
        httpProxy: text(network.httpProxy) ?? undefined,
        noProxy: text(network.noProxy) ?? undefined,
        caCertFile: text(network.caCertFile) ?? undefined,
        timeoutMs: network.timeoutMs ?? undefined,
      })
      await settings.updateUser({
        network: {
          httpProxy: text(network.httpProxy),
          noProxy: text(network.noProxy),
          caCertFile: text(network.caCertFile),
          timeoutMs: network.timeoutMs,
        },
      } as never)
      return snapshot()
    },
    'settings.setLimits': async ({
      defaultTimeoutMs,
      maxTimeoutMs,
      maxOutputLength,
      approvalTimeoutMs,
      terminalIdleMinutes,
    }) => {
      if (maxTimeoutMs < defaultTimeoutMs) {
        throw new RpcError(
          'invalid_input',
          `settings.setLimits: maxTimeoutMs: must be at least the default timeout (${defaultTimeoutMs} ms)`,
        )
      }
      // The schema's own bounds (e.g. a default of at most 600000 ms) are checked by the store.
      await settings.updateUser({
        limits: {
          defaultTimeoutMs,
          maxTimeoutMs,
          maxOutputLength,
          terminalIdleMinutes: terminalIdleMinutes ?? settings.user().limits.terminalIdleMinutes,
        },
        approvals: { timeoutMs: approvalTimeoutMs },
      })
      return snapshot()
    },
    'settings.setEnvironment': async ({ passThrough }) => {
      await settings.updateUser({ environment: { passThrough: [...new Set(passThrough)] } })
      return snapshot()
    },
    'settings.addRule': async ({ confirmBroad, ...change }) => {
      if (change.scope === 'session') core.sessions.get(change.sessionId ?? '')
      const broad = change.list === 'allow' ? broadRuleProblem(change.rule) : null
      if (broad && !confirmBroad)
        throw new RpcError(
          'invalid_input',
          `settings.addRule: confirmBroad: ${broad}. Confirm to add it anyway.`,
        )
      const saved = await settings.addRule(change)
      // A rule the user adds in Settings is one the user accepted.
      if (change.scope === 'workspace' && change.list === 'allow')
        await core.trust.amend(settings.workspaceDir, { add: [saved.rule] })
      return snapshot(change.sessionId)
    },
    'settings.trustWorkspaceRules': async ({ confirmBroad }) => {
      // The list in force, which is what the UI shows (the watcher refreshes both within a second).
      const allow = settings.workspace().permissions.allow
      const { added } = core.trust.state(settings.workspaceDir, allow)
      const broad = added.map(broadRuleProblem).filter(Boolean)
      // A repository's `*` is the attack this trust step exists for: never accepted in passing.
      if (broad.length > 0 && !confirmBroad)
        throw new RpcError(
          'invalid_input',
          `settings.trustWorkspaceRules: confirmBroad: ${broad.join('; ')}. Confirm to trust them anyway.`,
        )
      await core.trust.trust(settings.workspaceDir, allow)
      return snapshot()
    },
    'settings.removeRule': async (change) => {
      await settings.removeRule(change)
      // Deleted by the person: if the file brings it back, that is a change to accept again.
      if (change.scope === 'workspace' && change.list === 'allow')
        await core.trust.amend(settings.workspaceDir, { remove: [change.rule.trim()] })
      return snapshot(change.sessionId)
    },
  }
}
