import type { CommandVerdict } from '../../core/bash/verdict'
import { classifyCommand } from '../../core/bash/classify'
import { decideBashPermission } from '../../core/permissions'
import type { MatchedRule } from '../../core/permissions/permission-types'
import { readCommandSettings, SettingsFileError } from '../../core/permissions/settings-files'
import { applyWorkspaceTrust, loadWorkspaceTrust } from '../../core/permissions/workspace-trust'
import { UsageError } from '../usage-error'

/** What the person's rules do with a command in a folder, as `shellgate exec` and the app decide it. */
export interface RulesVerdict {
  /** allow (runs), ask (waits for the person), deny (refused), in the mode the settings give. */
  outcome: 'allow' | 'ask' | 'deny'
  reason: string
  /** The rules that decided it, each with where it is written; empty when none did. */
  rules: Array<Pick<MatchedRule, 'behavior' | 'rule' | 'source' | 'file' | 'matched'>>
  /** The workspace file's allow rules that do not count yet: the person has not trusted them. */
  untrustedWorkspaceRules: string[]
}

/** Reads the settings for `cwd` once; the checker then decides each command with them. */
/** A command judged as a session in `cwd` would be: the verdict, and what the rules do with it. */
export interface JudgedCommand {
  verdict: CommandVerdict
  decision: RulesVerdict
}

export async function rulesChecker(home: string, cwd: string): Promise<(command: string) => JudgedCommand> {
  const settings = await readCommandSettings(home, cwd).catch((error: unknown) => {
    if (error instanceof SettingsFileError) throw new UsageError(`shellgate classify: ${error.message}`)
    throw error
  })
  const trust = await loadWorkspaceTrust(home)
  const { ruleSets, untrusted } = applyWorkspaceTrust(
    settings.ruleSets,
    settings.workspaceFile,
    trust.trustedRules(cwd, settings.workspace.permissions.allow),
  )
  const user = settings.user
  return (command) => {
    const verdict = classifyCommand(command, {
      cwd,
      workspace: cwd,
      readableFolders: user.readPlaces.readableFolders,
      shellgateHome: home,
    })
    const decision = decideBashPermission({
      verdict,
      mode: user.permissions.mode,
      ruleSets,
      readsOutsideWorkspace: user.readPlaces.readsOutsideWorkspace,
    })
    return {
      verdict,
      decision: {
        outcome: decision.outcome,
        reason: decision.reason,
        rules: decision.rules.map(({ behavior, rule, source, file, matched }) => ({
          behavior,
          rule,
          source,
          file,
          matched,
        })),
        untrustedWorkspaceRules: untrusted,
      },
    }
  }
}
