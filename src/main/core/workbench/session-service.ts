import { realpath, rm, stat } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import type { CallChannel, Session } from '../../../shared/ipc/domains/sessions'
import { isRunning } from '../sessions/agent-process'
import { conversationTitle, isSameRun, type RunQuery } from '../sessions/agent-runs'
import type { SessionRecord } from '../sessions/session-record'
import type { ShellRestoreState } from '../sessions/session-shell'
import type { SessionStore } from '../sessions/session-store'
import { discoverShells } from '../shell/discover'
import { nodeShellFs } from '../shell/shell-fs'
import { SHELL_DISPLAY_NAMES, type ShellSelection } from '../shell/types'
import { type CallHistory, openCallHistory } from './call-history'
import { WorkbenchError } from './workbench-error'

/** A session while the app runs: its record, where its next command starts, and its calls. */
export interface LiveSession {
  record: SessionRecord
  restore: ShellRestoreState | 'new'
  /** Where the next Bash call starts; moved only by the cwd policy. */
  cwd: string
  history: CallHistory
  /** Its last call or connection (in memory; after a restart, its last call's start). */
  lastSeenAt: string | null
}

export interface SessionService {
  /**
   * Restores the agents' sessions and the person's ones in the person's workspace from disk, and
   * creates the person's first one when there is none (once they have a workspace).
   */
  start(): Promise<void>
  /** The person's workspace, null until they chose one; agents' sessions never need it. */
  personWorkspace(): string | null
  /**
   * Sets the person's workspace when Shellgate started without one: their sessions there come back
   * from disk (or a first one is made). Another folder once one is set is refused.
   */
  choosePersonWorkspace(workspace: string): Promise<void>
  list(): Session[]
  get(sessionId: string): LiveSession
  create(input?: NewSession): Promise<Session>
  /** Forgets the session and its history; the caller denies its approvals and stops its tasks first. */
  close(sessionId: string): Promise<void>
  /** The conversation of the agent run `query` describes, open or ended; null when there is none. */
  findRun(query: RunQuery): LiveSession | null
  /**
   * A call or connection of this conversation arrived by `channel`: it is seen now, opens again if
   * it had ended, and learns what the caller knows of its run (the agent's session id, its process).
   */
  touch(
    sessionId: string,
    channel: CallChannel,
    run?: SessionRecord['run'],
    /** The agent's version, for a conversation that did not know it (a hook started it). */
    version?: string | null,
  ): Promise<void>
  /** The agent run ended (its connection closed, its process exited, it went quiet): folded away, history kept. */
  end(sessionId: string): Promise<void>
  /** An MCP connection of this conversation is open until `signal` aborts; when the last one closes, it ends. */
  attach(sessionId: string, signal: AbortSignal): void
  /** Whether an MCP connection of this conversation is open now. */
  isAttached(sessionId: string): boolean
  /**
   * Ends the agent conversations no connection holds whose agent process exited, or (process
   * unknown) that saw no call for HOOK_IDLE_END_MS. Runs every SWEEP_INTERVAL_MS after start().
   */
  sweep(): Promise<void>
  /** Stops the sweep timer. */
  dispose(): void
  onChange(listener: (sessions: Session[]) => void): () => void
}

export interface NewSession {
  title?: string
  /** Absolute path of an existing directory; default: the core's workspace. */
  workspace?: string
  agent?: { name: string; version: string | null }
  /** The agent run it is (issue 22.4), so later calls of that run find it. */
  run?: SessionRecord['run']
  /** The channel of the call or connection that made it. */
  channel?: CallChannel
}

/** Each open session is a file, a history and a tab; a client must not be able to open thousands. */
export const MAX_OPEN_SESSIONS = 100
/** A hook-only run whose agent process cannot be read has ended after this long without a call. */
export const HOOK_IDLE_END_MS = 30 * 60_000
/** How often conversations without a connection are checked for an agent that went away. */
export const SWEEP_INTERVAL_MS = 60_000

export interface SessionServiceOptions {
  store: SessionStore
  /** The person's workspace; null until they choose one (agents bring their own). */
  workspace: string | null
  platform: NodeJS.Platform
  dataDir: string
  /** The shell a new session gets now (settings + discovery). */
  currentShell: () => Promise<ShellSelection>
  /** Where a session's Bash output files live; removed with the session. */
  outputDirOf: (sessionId: string) => string
}

export function createSessionService(options: SessionServiceOptions): SessionService {
  const live = new Map<string, LiveSession>()
  const listeners = new Set<(sessions: Session[]) => void>()
  const historyFile = (id: string) => join(options.store.dir, `${id}.calls.jsonl`)

  let personWorkspace = options.workspace
  const attached = new Map<string, Set<AbortSignal>>()
  let sweepTimer: NodeJS.Timeout | null = null
  const list = () => [...live.values()].map(toView)
  const changed = () => {
    const sessions = list()
    for (const listener of listeners) listener(sessions)
  }

  const adopt = async (record: SessionRecord, restore: LiveSession['restore']) => {
    const session: LiveSession = {
      record,
      restore,
      cwd: record.workspace,
      history: await openCallHistory(historyFile(record.id)),
      lastSeenAt: null,
    }
    session.lastSeenAt = session.history.list().at(-1)?.startedAt ?? null
    live.set(record.id, session)
    return session
  }
  const saveRecord = async (session: LiveSession, record: SessionRecord) => {
    await options.store.save(record)
    session.record = record
    changed()
  }

  /** Brings back the sessions `keep` selects, oldest first; a person's first one is made if they have none. */
  const restoreWhere = async (keep: (record: SessionRecord) => boolean) => {
    const current = await options.currentShell()
    const records = (await options.store.list())
      .filter((record) => !live.has(record.id) && keep(record))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    for (const record of records) {
      const restored = await options.store.restore(record.id, current, {
        fs: nodeShellFs,
        platform: options.platform,
      })
      if (restored) await adopt(restored.record, restored.restore.state)
    }
    const hasOwn = [...live.values()].some(
      (session) => !session.record.agent && session.record.workspace === personWorkspace,
    )
    if (personWorkspace !== null && !hasOwn) await service.create()
    else changed()
  }

  const service: SessionService = {
    attach(sessionId, signal) {
      const signals = attached.get(sessionId) ?? new Set<AbortSignal>()
      signals.add(signal)
      attached.set(sessionId, signals)
      signal.addEventListener(
        'abort',
        () => {
          signals.delete(signal)
          if (signals.size > 0) return
          attached.delete(sessionId)
          void service.end(sessionId).catch(() => undefined)
        },
        { once: true },
      )
    },
    isAttached(sessionId) {
      return [...(attached.get(sessionId) ?? [])].some((signal) => !signal.aborted)
    },
    async sweep() {
      const now = Date.now()
      for (const session of [...live.values()]) {
        const { record } = session
        if (!record.agent || record.endedAt || service.isAttached(record.id)) continue
        const process = record.run?.process
        const gone = process
          ? !(await isRunning(process, options.platform))
          : now - Date.parse(session.lastSeenAt ?? record.createdAt) > HOOK_IDLE_END_MS
        if (gone) await service.end(record.id).catch(() => undefined)
      }
    },
    dispose() {
      if (sweepTimer) clearInterval(sweepTimer)
      sweepTimer = null
    },
    async start() {
      sweepTimer ??= setInterval(() => void service.sweep(), SWEEP_INTERVAL_MS)
      sweepTimer.unref()
      // An agent's session lives in its own workspace and belongs to this home's one core: it
      // comes back too, so the person still sees it (and can close it) after a restart.
      await restoreWhere((record) => record.agent !== undefined || record.workspace === personWorkspace)
    },
    personWorkspace: () => personWorkspace,
    async choosePersonWorkspace(workspace) {
      if (personWorkspace === workspace) return
      if (personWorkspace !== null)
        throw new WorkbenchError(
          'invalid_input',
          `this Shellgate already works in ${personWorkspace}; start another with --workspace ${workspace}`,
          'workspace',
        )
      personWorkspace = workspace
      await restoreWhere((record) => record.agent === undefined && record.workspace === workspace)
    },
    list,
    get(sessionId) {
      const session = live.get(sessionId)
      if (!session) throw new WorkbenchError('invalid_input', `no open session "${sessionId}"`)
      return session
    },
    async create(input = {}) {
      if (live.size >= MAX_OPEN_SESSIONS) {
        throw new WorkbenchError('denied', `${MAX_OPEN_SESSIONS} sessions are open; close one first`)
      }
      const workspace =
        input.workspace === undefined ? personWorkspace : await resolveSessionWorkspace(input.workspace)
      if (workspace === null)
        throw new WorkbenchError('invalid_input', 'choose the folder to work in first', 'workspace')
      const shell = await options.currentShell()
      const taken = new Set([...live.values()].map((each) => each.record.title ?? ''))
      // An agent's conversation is named by the hub, so two never look alike.
      const title = input.agent
        ? conversationTitle(input.agent, workspace, new Date(), taken)
        : input.title?.trim() || `Session ${live.size + 1}`
      const record = await options.store.create({
        workspace,
        shell,
        title,
        ...(input.agent ? { agent: input.agent } : {}),
        ...(input.run ? { run: input.run } : {}),
        ...(input.channel ? { channels: [input.channel] } : {}),
      })
      const session = await adopt(record, 'new')
      session.lastSeenAt = record.createdAt
      changed()
      return toView(session)
    },
    findRun(query) {
      const matches = [...live.values()].filter((session) => isSameRun(session.record, query))
      // The newest when a run was split before (e.g. a restart between its hook and MCP calls).
      return matches.at(-1) ?? null
    },
    async touch(sessionId, channel, run, version) {
      const session = service.get(sessionId)
      session.lastSeenAt = new Date().toISOString()
      const { record } = session
      const named =
        record.agent && record.agent.version === null && version
          ? {
              agent: { ...record.agent, version },
              title: conversationTitle(
                { ...record.agent, version },
                record.workspace,
                new Date(record.createdAt),
                new Set(
                  [...live.values()]
                    .filter((each) => each !== session)
                    .map((each) => each.record.title ?? ''),
                ),
              ),
            }
          : {}
      const channels = record.channels ?? []
      const learned = {
        ...((record.run?.agentSessionId ?? run?.agentSessionId)
          ? { agentSessionId: record.run?.agentSessionId ?? run?.agentSessionId }
          : {}),
        ...((record.run?.process ?? run?.process) ? { process: record.run?.process ?? run?.process } : {}),
      }
      const next: SessionRecord = {
        ...record,
        ...named,
        channels: channels.includes(channel) ? channels : [...channels, channel],
        ...(Object.keys(learned).length > 0 ? { run: learned } : {}),
      }
      delete next.endedAt
      if (JSON.stringify(next) !== JSON.stringify(record)) await saveRecord(session, next)
    },
    async end(sessionId) {
      const session = live.get(sessionId)
      if (!session?.record.agent || session.record.endedAt) return
      await saveRecord(session, { ...session.record, endedAt: new Date().toISOString() })
    },
    async close(sessionId) {
      const session = this.get(sessionId)
      live.delete(sessionId)
      await session.history.remove()
      await options.store.remove(sessionId)
      await rm(options.outputDirOf(sessionId), { recursive: true, force: true })
      changed()
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  return service
}

/**
 * A session's workspace as the agent named it: absolute, resolved through symlinks (so rules and
 * trust attach to the real folder), and an existing directory.
 */
export async function resolveSessionWorkspace(path: string): Promise<string> {
  if (!isAbsolute(path)) throw new WorkbenchError('invalid_input', 'must be an absolute path', 'workspace')
  const real = await realpath(path).catch(() => null)
  const info = real ? await stat(real).catch(() => null) : null
  if (!real || !info?.isDirectory())
    throw new WorkbenchError('invalid_input', `${path} is not an existing directory`, 'workspace')
  return real
}

/** The shell new sessions would get: the settings' choice when it works, else discovery's pick. */
export function shellForNewSessions(
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string>>,
  settings: { kind: 'auto' | 'bash' | 'zsh' | 'git-bash' | 'cmd'; path?: string },
): ShellSelection {
  return discoverShells({ platform, env, settings }).selection
}

function toView(session: LiveSession): Session {
  const { record } = session
  return {
    id: record.id,
    title: record.title ?? 'Session',
    workspace: record.workspace,
    agent: record.agent ?? null,
    createdAt: record.createdAt,
    shell: {
      path: record.shell.path,
      name: SHELL_DISPLAY_NAMES[record.shell.dialect],
      restore: session.restore,
      reminder: record.reminders.at(-1) ?? null,
    },
    origin: record.agent ? 'agent' : 'person',
    channels: record.channels ?? (record.agent ? [] : ['person']),
    agentSessionId: record.run?.agentSessionId ?? null,
    lastSeenAt: session.lastSeenAt,
    endedAt: record.endedAt ?? null,
  }
}
