import { mkdir, realpath } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { ShellgateContract } from '../../shared/ipc/contract'
import type { EventName, EventPayload } from '../../shared/ipc/define'
import type { About } from '../../shared/ipc/domains/app'
import type { EnvRecord } from './env/env-keys'
import { createExecutionPort } from './exec/execution-port'
import type { ExecutionPort } from './exec/types'
import { type ApprovalBroker, createApprovalBroker } from './permissions/approval-broker'
import { validateBashRule } from './permissions/rule-syntax'
import { loadWorkspaceTrust, type WorkspaceTrust } from './permissions/workspace-trust'
import { resolveShellgateHome } from './paths'
import {
  createSandboxService,
  type SandboxService,
  type SandboxServiceOptions,
} from './sandbox/sandbox-service'
import { createSessionStore } from './sessions/session-store'
import { type AuditLog, createAuditLog } from './settings/audit-log'
import { rememberWorkspace } from './settings/recent-workspaces'
import { openSettingsStore, type SettingsStore } from './settings/settings-store'
import { watchSettingsFiles } from './settings/settings-watcher'
import { createShellSnapshotService, type ShellSnapshotService } from './shell/snapshot-service'
import { createTaskPorts, type TaskPorts } from './tasks/task-ports'
import { createTaskRegistry, type TaskRegistry } from './tasks/task-registry'
import { createTerminalTasks, type TerminalTasks } from './tasks/terminal-tasks'
import { auditTaskInput } from './workbench/input-audit'
import { forwardTerminalEvents } from './workbench/terminal-events'
import { APP_VERSION } from './version'
import { type BashCallService, createBashCallService } from './workbench/bash-call-service'
import { detectSandboxBackend } from './workbench/sandbox-probe'
import { createNetworkRules, type NetworkRules } from './workbench/network-rules'
import { createWorkspaceSettings, type WorkspaceSettings } from './workbench/workspace-settings'
import { forwardCoreEvents } from './workbench/core-events'
import { watchEndedConversations } from './workbench/ended-conversations'
import { type KeptDecisions, keepTaskOutcomes, openKeptDecisions } from './workbench/kept-decisions'
import { createRuleOffers, type RuleOffers } from './workbench/rule-offers'
import { type RuntimeEnvironment, startRuntimeEnvironment } from './workbench/runtime-environment'
import { createSessionService, type SessionService, shellForNewSessions } from './workbench/session-service'

export type EmitEvent = <E extends EventName<ShellgateContract>>(
  name: E,
  payload: EventPayload<ShellgateContract, E>,
) => void

export interface CoreOptions {
  /**
   * The person's workspace; null when Shellgate started without --workspace and the person has not
   * chosen one yet (chooseWorkspace). Agents work in their own folders either way.
   */
  workspace: string | null
  /** The sanitised runtime environment (sanitizeEntryEnv), never the raw process.env. */
  env: EnvRecord
  runtime: 'electron' | 'browser'
  electronVersion: string | null
  platform?: NodeJS.Platform
  /** Run the user's login shell once to capture PATH and friends (default: true). */
  captureLoginShell?: boolean
  /** Where events for the UIs go; the IPC host passes its hub. */
  emit: EmitEvent
  /** Tests: a fixed backend answer, or the loopback test server the allowlist proxy may reach. */
  sandbox?: Partial<Pick<SandboxServiceOptions, 'detect' | 'admitLoopbackPorts' | 'resolver' | 'bwrapPath'>>
}

export interface Core {
  /** The person's workspace; null until they choose one. */
  readonly workspace: string | null
  readonly dataDir: string
  readonly platform: NodeJS.Platform
  readonly settings: SettingsStore
  readonly audit: AuditLog
  readonly approvals: ApprovalBroker
  readonly trust: WorkspaceTrust
  readonly tasks: TaskRegistry
  /** Terminal tasks' input, its log and the idle limit (issue 23). */
  readonly terminals: TerminalTasks
  /** Ports tasks listen on, and the ones the person opened on the host (issue 23.3). */
  readonly ports: TaskPorts
  readonly sessions: SessionService
  readonly bash: BashCallService
  readonly environment: RuntimeEnvironment
  readonly port: ExecutionPort
  readonly sandbox: SandboxService
  /** Each workspace's own settings files and the rules in effect for a session there. */
  readonly workspaceSettings: WorkspaceSettings
  /** Decisions on promised tasks that outlive the agent run that asked (issue 22.5). */
  readonly kept: KeptDecisions
  /** Rules offered after the person allowed one command shape several times (issue 22.8). */
  readonly ruleOffers: RuleOffers
  /** The settings store of a session's workspace, or of the person's workspace without one. */
  settingsFor(sessionId?: string): Promise<SettingsStore>
  /** Sets the person's workspace once, when Shellgate started without one (workspaces.choose). */
  chooseWorkspace(workspace: string): Promise<string>
  /** Network rules (session, this workspace on this machine, user) and each workspace's allowed ports. */
  readonly networkRules: NetworkRules
  about(transport: About['transport']): About
  /** Closes a session: denies its approvals, stops its tasks, forgets its rules and history. */
  closeSession(sessionId: string): Promise<void>
  /** Stops everything the core started (tasks, timers, snapshot files); safe to call twice. */
  dispose(): Promise<void>
}

/** An empty folder of ours for the core's own settings store while the person has no workspace. */
async function noWorkspaceAnchor(dataDir: string): Promise<string> {
  const anchor = join(dataDir, 'no-workspace')
  await mkdir(anchor, { recursive: true, mode: 0o700 })
  return anchor
}

/** The composition root: every service is created here and nowhere else. */
export async function createCore(options: CoreOptions): Promise<Core> {
  const platform = options.platform ?? process.platform
  const dataDir = resolveShellgateHome(options.env)
  // Without a person's workspace the core's own store still holds the user's settings; its
  // workspace part reads an empty folder of ours that no session ever works in.
  const anchor = options.workspace ?? (await noWorkspaceAnchor(dataDir))
  const workspaceReal = await realpath(anchor).catch(() => anchor)
  const settings = await openSettingsStore({
    home: dataDir,
    workspace: anchor,
    validateRule: validateBashRule,
  })
  // A planted file or a bad edit on disk is said to the person, not only to a log.
  const warn = (message: string) => options.emit('app.notice', { level: 'warning', message })
  const audit = createAuditLog({ home: dataDir, onRefused: warn })
  const trust = await loadWorkspaceTrust(dataDir)
  // The hub re-reads its files when they change on disk (an editor, a `git pull`, another writer).
  const settingsWatcher = await watchSettingsFiles({ store: settings, trust, onProblem: warn })
  const stopTrustEvents = trust.onChange(() => options.emit('settings.changed', { scope: 'workspace' }))
  const workspaceSettings = createWorkspaceSettings({
    home: dataDir,
    main: settings,
    mainWorkspace: workspaceReal,
    validateRule: validateBashRule,
    watch: (store) => watchSettingsFiles({ store, trust, onProblem: warn }),
  })
  const approvals = createApprovalBroker({
    // A workspace allow rule the user saves by answering a card is one the user accepted; it goes
    // to the file of the workspace the asking session lives in.
    rules: {
      async addRule(change) {
        const store =
          (change.scope === 'workspace' || change.scope === 'local') && change.sessionId
            ? await workspaceSettings.storeFor(sessions.get(change.sessionId).record.workspace)
            : settings
        const saved = await store.addRule(change)
        if (change.scope === 'workspace' && change.list === 'allow')
          await trust.amend(store.workspaceDir, { add: [saved.rule] })
        return saved
      },
    },
    timeoutMs: () => settings.user().approvals.timeoutMs,
  })
  const tasks = createTaskRegistry()
  const kept = await openKeptDecisions(dataDir)
  const stopKeepingOutcomes = keepTaskOutcomes(tasks, kept)
  const terminals = createTerminalTasks({
    registry: tasks,
    idleLimitMs: () => settings.user().limits.terminalIdleMinutes * 60_000,
  })
  const ports = createTaskPorts({ registry: tasks, platform, onProblem: warn })
  const port = createExecutionPort({ platform })
  const environment = startRuntimeEnvironment({
    env: options.env,
    platform,
    captureLoginShell: options.captureLoginShell ?? true,
    passThrough: () => settings.user().environment.passThrough,
  })
  const snapshots: ShellSnapshotService | null =
    platform === 'win32' ? null : createShellSnapshotService({ dataDir, platform })
  const outputRoot = join(dataDir, 'exec', 'bash-output')
  const sandbox = createSandboxService({
    platform,
    home: options.env.HOME ?? homedir(),
    dataDir,
    detect: () => detectSandboxBackend(port, { platform, bwrapPath: options.sandbox?.bwrapPath }),
    // The user's settings only: a repository's own file must never choose where egress goes.
    parentProxy: async () => ({ settings: settings.user(), env: await environment.ready() }),
    spareNetworks: true,
    ...options.sandbox,
  })
  // issue 12: probe the backend at start (run `true` in each profile), not on the first command.
  void sandbox.backend()
  // At start, before any run here: the caches of deleted and long-unused workspaces go (they are
  // renamed aside at once; the deleting happens in the background).
  const pruned = sandbox.pruneCaches()
  void pruned.deleted.then(() => {
    for (const failure of pruned.failed)
      warn(`a sandbox tool cache could not be removed: ${failure.path}: ${failure.reason}`)
  })
  const networkRules = createNetworkRules({ home: dataDir, settings, portRefusal: sandbox.portRefusal })
  const sessions = createSessionService({
    store: createSessionStore(dataDir, undefined, { onRefused: warn }),
    workspace: options.workspace,
    platform,
    dataDir,
    currentShell: async () => shellForNewSessions(platform, await environment.ready(), settings.user().shell),
    outputDirOf: (sessionId) => join(outputRoot, sessionId),
  })
  const bash = createBashCallService({
    sessions,
    settings,
    approvals,
    trust,
    audit,
    tasks,
    port,
    snapshots,
    runtimeEnv: () => environment.ready(),
    platform,
    dataDir,
    workspaceSettings,
    outputRoot,
    sandbox,
    kept,
    network: {
      networkRules,
      approvals,
      audit,
      approvalTimeoutMs: () => settings.user().approvals.timeoutMs,
      mode: () => settings.user().permissions.mode,
    },
    onCall: (call) => options.emit('bash.call', call),
    onProgress: ({ call, sample }) =>
      options.emit('bash.progress', {
        callId: call.id,
        sessionId: call.sessionId,
        elapsedMs: sample.elapsedMs,
        totalBytes: sample.totalBytes,
        lastOutputAgeMs:
          sample.lastOutputAt === null ? null : Math.max(0, sample.elapsedMs - sample.lastOutputAt),
        tail: sample.preview100,
      }),
  })
  const ruleOffers = await createRuleOffers({
    approvals,
    dataDir,
    onProblem: warn,
    workspaceOf: (sessionId) => sessions.list().find((each) => each.id === sessionId)?.workspace ?? null,
    storeFor: (chosen) => workspaceSettings.storeFor(chosen),
    onOffer: (offer) => options.emit('rules.offered', offer),
  })
  const stopPruning = watchEndedConversations({
    sessions,
    tasks,
    approvals,
    close: (sessionId) => closeSession(sessionId),
  })
  const stopForwarding = forwardCoreEvents({
    emit: options.emit,
    settings,
    approvals,
    tasks,
    sessions,
    ports,
  })
  const stopTerminalEvents = forwardTerminalEvents({ emit: options.emit, tasks, terminals, ports })
  const stopInputAudit = auditTaskInput({ audit, tasks, terminals, sessions })
  await sessions.start()
  // Offered the next time Shellgate starts without --workspace; a list that cannot be written only
  // loses that convenience, never the start.
  if (options.workspace) await rememberWorkspace(dataDir, options.workspace).catch(() => undefined)
  let disposed: Promise<void> | null = null
  async function closeSession(sessionId: string): Promise<void> {
    sessions.get(sessionId)
    approvals.closeSession(sessionId)
    await tasks.stopAll('user', sessionId)
    settings.closeSession(sessionId)
    networkRules.closeSession(sessionId)
    await sessions.close(sessionId)
  }
  const personStore = () => {
    const person = sessions.personWorkspace()
    return person === null ? Promise.resolve(settings) : workspaceSettings.storeFor(person)
  }

  return {
    get workspace() {
      return sessions.personWorkspace()
    },
    dataDir,
    platform,
    settings,
    audit,
    approvals,
    trust,
    tasks,
    terminals,
    ports,
    sessions,
    bash,
    environment,
    port,
    sandbox,
    workspaceSettings,
    kept,
    ruleOffers,
    settingsFor(sessionId) {
      return sessionId === undefined
        ? personStore()
        : workspaceSettings.storeFor(sessions.get(sessionId).record.workspace)
    },
    async chooseWorkspace(chosen) {
      await sessions.choosePersonWorkspace(chosen)
      await rememberWorkspace(dataDir, chosen).catch(() => undefined)
      // The person's settings now include that workspace's files.
      options.emit('settings.changed', { scope: 'workspace' })
      return chosen
    },
    networkRules,
    about(transport) {
      return {
        appVersion: APP_VERSION,
        platform,
        arch: process.arch,
        nodeVersion: process.versions.node,
        electronVersion: options.electronVersion,
        runtime: options.runtime,
        dataDir,
        workspace: sessions.personWorkspace(),
        transport,
      }
    },
    closeSession,
    dispose() {
      disposed ??= (async () => {
        // Foreground calls first: a call cancelled here can no longer move to the background.
        await bash.dispose()
        sessions.dispose()
        settingsWatcher.close()
        workspaceSettings.close()
        stopTrustEvents()
        stopForwarding()
        stopPruning()
        await ruleOffers.dispose()
        stopKeepingOutcomes()
        approvals.dispose()
        await tasks.dispose()
        terminals.dispose()
        stopTerminalEvents()
        stopInputAudit()
        await ports.dispose()
        // Stopped tasks answer at the kill request too; their trees must be gone before we are.
        await port.whenQuiet?.()
        // A spare network still being made is ended too, and waited for: nothing outlives the core.
        sandbox.dispose()
        await sandbox.sparesIdle()
        await snapshots?.close()
      })()
      return disposed
    },
  }
}
