import { realpath, rm, stat } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import type { Session } from '../../../shared/ipc/domains/sessions'
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
  onChange(listener: (sessions: Session[]) => void): () => void
}

export interface NewSession {
  title?: string
  /** Absolute path of an existing directory; default: the core's workspace. */
  workspace?: string
  agent?: { name: string; version: string | null }
}

/** Each open session is a file, a history and a tab; a client must not be able to open thousands. */
export const MAX_OPEN_SESSIONS = 100

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
    }
    live.set(record.id, session)
    return session
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
    async start() {
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
      const record = await options.store.create({
        workspace,
        shell,
        title: input.title?.trim() || `Session ${live.size + 1}`,
        ...(input.agent ? { agent: input.agent } : {}),
      })
      const session = await adopt(record, 'new')
      changed()
      return toView(session)
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
    channels: [],
    agentSessionId: null,
    lastSeenAt: null,
    endedAt: null,
  }
}
