import { homedir } from 'node:os'
import { classifyCommand } from '../bash/classify'
import type { ShellGlobbing } from '../bash/places/shell-globbing'
import { unsandboxedVerdict } from '../bash/unsandboxed-verdict'
import { decideBashPermission } from '../permissions/decide-permission'
import { installEntries, ownControlUse } from '../permissions/own-controls'
import type { PermissionDecision } from '../permissions/permission-types'
import { ruleSetsFromScoped } from '../permissions/settings-rule-sets'
import { applyWorkspaceTrust, type WorkspaceTrust } from '../permissions/workspace-trust'
import type { SettingsStore } from '../settings/settings-store'
import type { ShellSnapshotService } from '../shell/snapshot-service'
import type { ShellSelection } from '../shell/types'
import type { LiveSession } from './session-service'
import { interactiveVerdict } from './terminal-call'
import type { WorkspaceSettings } from './workspace-settings'

export interface CallDecisionDeps {
  settings: SettingsStore
  trust: WorkspaceTrust
  workspaceSettings: WorkspaceSettings
  platform: NodeJS.Platform
  dataDir: string
  /** The person's home as the sandbox reads it (`~/…` in a command); default: this process's. */
  userHome?: string
  /** The shell snapshots, whose options say how the session's shell globs (issue 21.2). */
  snapshots: ShellSnapshotService | null
}

/** How the command will run, where that changes what is read-only. */
export interface CallKind {
  /** On a terminal the agent can type into (issue 23). */
  terminal?: boolean
  /** In the agent's own shell, a hook's client that cannot hand it to Shellgate (issue 20.2). */
  unsandboxed?: boolean
}

/** This install's entry scripts: `node <one of them> ui` is `shellgate ui`. */
const SELF_ENTRIES = installEntries(process.argv[1])

/** The one decision path, shared by run() and check(): classify, then mode and trusted rules. */
export async function decideCall(
  deps: CallDecisionDeps,
  session: LiveSession,
  command: string,
  how: CallKind = {},
) {
  const sessionId = session.record.id
  const userSettings = deps.settings.user()
  // issue 13 class 6: secrets and reads that leave the session's workspace ask first. No env is
  // given: every GIT_* variable is removed from what runs without asking (autoRunEnv).
  const classified = classifyCommand(command, {
    cwd: session.cwd,
    platform: deps.platform,
    workspace: session.record.workspace,
    readableFolders: userSettings.readPlaces.readableFolders,
    shellgateHome: deps.dataDir,
    globbing: sessionGlobbing(session.record.shell, deps.snapshots),
  })
  // issue 23: a terminal's later input was never classified; issue 20.2: the agent's own shell has
  // no sandbox and no clean environment to lean on.
  const typed = how.terminal ? interactiveVerdict(classified) : classified
  const verdict = how.unsandboxed ? unsandboxedVerdict(typed, session.cwd) : typed
  // issue 20: an agent never reaches Shellgate's own controls, whatever the mode or the rules say.
  const ownControl = session.record.agent
    ? ownControlUse(verdict, {
        shellgateHome: deps.dataDir,
        userHome: deps.userHome ?? homedir(),
        cwd: session.cwd,
        selfEntries: SELF_ENTRIES,
      })
    : null
  const store = await deps.workspaceSettings.storeFor(session.record.workspace)
  // Synchronous once the workspace's store is open: an approval re-decides with the rules in
  // effect at that moment (a rule saved on another card may now allow it).
  const decideAgain = (): PermissionDecision => {
    if (ownControl !== null) {
      return {
        outcome: 'deny',
        basis: 'builtin.ownControls',
        mode: deps.settings.user().permissions.mode,
        readOnly: verdict.readOnly,
        reason: `Shellgate's own controls are not an agent's: ${ownControl}`,
        rules: [],
        nearMiss: null,
      }
    }
    const { rules, workspaceFile, workspaceDir, workspaceAllow } = deps.workspaceSettings.rulesIn(
      store,
      sessionId,
    )
    return decideBashPermission({
      verdict,
      mode: deps.settings.user().permissions.mode,
      readsOutsideWorkspace: deps.settings.user().readPlaces.readsOutsideWorkspace,
      ruleSets: applyWorkspaceTrust(
        ruleSetsFromScoped(rules),
        workspaceFile,
        deps.trust.trustedRules(workspaceDir, workspaceAllow),
      ).ruleSets,
    })
  }
  return { verdict, decision: decideAgain(), userSettings, decideAgain }
}

/**
 * How the session's shell will glob: bash or zsh, with its snapshot's options once one exists
 * (before that, every option counts as possibly on). The locale is left open: both readings count.
 */
function sessionGlobbing(shell: ShellSelection, snapshots: ShellSnapshotService | null): ShellGlobbing {
  const { dialect, path } = shell
  if (dialect !== 'bash' && dialect !== 'zsh' && dialect !== 'git-bash')
    return { shell: null, options: null, characters: null }
  const options = snapshots?.globOptions({ dialect, path }) ?? null
  return { shell: dialect === 'zsh' ? 'zsh' : 'bash', options, characters: null }
}
