import { mkdir, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { z } from 'zod'
import {
  BashRuleSchema,
  type PermissionRules,
  type UserSettings,
  UserSettingsSchema,
  type WorkspaceSettings,
  WorkspaceSettingsSchema,
} from '../../../shared/settings'
import { swapFile } from './compare-and-swap'
import { UnsafeFileError } from './owned-file'
import {
  type LocalWorkspaceSettings,
  LocalWorkspaceSettingsSchema,
  localRulesFile,
  workspaceRealPath,
} from './local-workspace-rules'
import { firstIssue, SettingsError } from './settings-error'
import { loadSettingsFile, SETTINGS_FILE_MAX_BYTES, type SettingsWarning } from './settings-file'
import { type FileState, freshValue, rereadFileState, sameJson } from './settings-file-state'
import { applySettingsPatch, type SettingsPatch } from './settings-patch'
import {
  emptyRules,
  RULE_LISTS,
  RULE_SCOPES,
  type RuleList,
  type RuleScope,
  type ScopedRule,
  toScopedRules,
  withoutRule,
  withRule,
} from './scoped-rules'
import { SETTINGS_FILE_NAME, WORKSPACE_SETTINGS_DIR, workspaceDirProblem } from './workspace-dir'

export interface SettingsStoreOptions {
  /** SHELLGATE_HOME (resolveShellgateHome). */
  home: string
  /** The workspace folder; its rules live in `<workspace>/.shellgate/settings.json`. */
  workspace: string
  /** Rule syntax check owned by the permissions room; returns an error message or null. */
  validateRule?: (rule: string) => string | null
}

export type SettingsChange =
  | { scope: 'user'; settings: UserSettings }
  | { scope: 'workspace'; settings: WorkspaceSettings }
  | { scope: 'session'; sessionId: string; rules: PermissionRules }
  | { scope: 'local'; settings: LocalWorkspaceSettings }

export interface RuleChange {
  scope: RuleScope
  list: RuleList
  rule: string
  /** Required for scope 'session'. */
  sessionId?: string
}

/** What a re-read of the files found (reload): the scopes now in effect anew, and files refused. */
export interface SettingsReload {
  changed: FileScope[]
  /** A file that changed on disk into something unusable; the last good settings stay in force. */
  problems: SettingsWarning[]
}

/** The scopes kept in a file: the user's, the repository's, and this machine's rules for the workspace. */
type FileScope = 'user' | 'workspace' | 'local'

export interface SettingsStore {
  readonly userFile: string
  readonly workspaceFile: string
  /** This workspace's rules kept on this machine (SHELLGATE_HOME/workspaces/<hash of its real path>.json). */
  readonly localFile: string
  /** The workspace folder the store was opened for. */
  readonly workspaceDir: string
  user(): UserSettings
  workspace(): WorkspaceSettings
  /** Files found unusable (kept as backups, or left in place and refused); the last good settings are in effect. */
  warnings(): SettingsWarning[]
  /**
   * Validates the merged result first; a bad patch throws SettingsError and changes nothing. The
   * patch is applied to the file as it is on disk at the moment of writing (compare-and-swap), so
   * a change another writer made meanwhile is kept.
   */
  updateUser(patch: SettingsPatch<UserSettings>): Promise<UserSettings>
  updateWorkspace(patch: SettingsPatch<WorkspaceSettings>): Promise<WorkspaceSettings>
  /** Adds a rule (no-op when present) and persists it for user/workspace scope. */
  addRule(change: RuleChange): Promise<ScopedRule>
  /** Returns false when the rule was not there. */
  removeRule(change: RuleChange): Promise<boolean>
  /** Every rule in effect for a session: session rules, then this machine's workspace rules, then the repository's, then user. */
  rules(sessionId?: string): ScopedRule[]
  /** Forgets a session's in-memory rules. */
  closeSession(sessionId: string): void
  /**
   * Re-reads both files (after an edit on disk): a valid change takes effect and is emitted; an
   * unusable one is reported and the last good settings stay. Unchanged bytes are a no-op.
   */
  reload(): Promise<SettingsReload>
  onChange(listener: (change: SettingsChange) => void): () => void
}

export async function openSettingsStore(options: SettingsStoreOptions): Promise<SettingsStore> {
  await requireDirectory(options.workspace)
  const userFile = join(options.home, SETTINGS_FILE_NAME)
  const workspaceDir = join(options.workspace, WORKSPACE_SETTINGS_DIR)
  const workspaceFile = join(workspaceDir, SETTINGS_FILE_NAME)
  const dirProblem = await workspaceDirProblem(workspaceDir)
  const realWorkspace = await workspaceRealPath(options.workspace)
  const localFile = localRulesFile(options.home, realWorkspace)
  const [userLoaded, workspaceLoaded, localLoaded] = await Promise.all([
    loadSettingsFile(userFile, UserSettingsSchema),
    dirProblem
      ? null
      : loadSettingsFile(workspaceFile, WorkspaceSettingsSchema, new Date(), { keepInPlace: true }),
    loadSettingsFile(localFile, LocalWorkspaceSettingsSchema),
  ])
  // A file moved aside at open is reported for the whole run; one left in place, while it stays bad.
  const backups = [userLoaded.warning, localLoaded.warning].filter((warning) => warning?.backupPath != null)
  const user: FileState<UserSettings> = {
    value: userLoaded.value,
    hash: userLoaded.read.hash,
    problem: userLoaded.warning?.backupPath ? null : userLoaded.warning,
  }
  const workspace: FileState<WorkspaceSettings> = workspaceLoaded
    ? { value: workspaceLoaded.value, hash: workspaceLoaded.read.hash, problem: workspaceLoaded.warning }
    : {
        value: WorkspaceSettingsSchema.parse({}),
        hash: null,
        problem: { file: workspaceFile, reason: dirProblem!, backupPath: null },
      }
  const local: FileState<LocalWorkspaceSettings> = {
    value: localLoaded.value,
    hash: localLoaded.read.hash,
    problem: localLoaded.warning?.backupPath ? null : localLoaded.warning,
  }
  const sessionRules = new Map<string, PermissionRules>()
  const listeners = new Set<(change: SettingsChange) => void>()
  let queue: Promise<unknown> = Promise.resolve()

  const emit = (change: SettingsChange) => {
    for (const listener of listeners) listener(change)
  }
  const emitScope = (scope: FileScope) =>
    emit(
      scope === 'user'
        ? { scope, settings: user.value }
        : scope === 'local'
          ? { scope, settings: local.value }
          : { scope, settings: workspace.value },
    )
  const scopeFile = { user: userFile, workspace: workspaceFile, local: localFile } as const
  const scopeState = { user, workspace, local } as const
  const scopeSchema = {
    user: UserSettingsSchema,
    workspace: WorkspaceSettingsSchema,
    local: LocalWorkspaceSettingsSchema,
  } as const

  /** In this store, one write or reload at a time; across stores and processes, swapFile's lock. */
  const serialised = <T>(task: () => Promise<T>): Promise<T> => {
    const next = queue.then(task, task)
    queue = next.catch(() => {})
    return next
  }

  /**
   * Re-applies `change` to the file as it is on disk now and writes the result; the fresh value is
   * adopted even when nothing needs writing, so this store never acts on a stale copy.
   */
  async function writeScope<T>(scope: FileScope, change: (fresh: T) => T): Promise<T> {
    const file = scopeFile[scope]
    const state = scopeState[scope] as unknown as FileState<T>
    const schema = scopeSchema[scope] as unknown as z.ZodType<T>
    // SHELLGATE_HOME/workspaces/ may not exist yet; the swap's lock lives beside the file.
    if (scope === 'local') await mkdir(dirname(file), { recursive: true, mode: 0o700 })
    if (scope === 'workspace') {
      // Checked again at every write: any command that ran since start may have planted a symlink
      // there, and writing through it would replace a file outside the workspace.
      const problem = await workspaceDirProblem(workspaceDir)
      if (problem)
        throw new SettingsError(
          '',
          problem.replace('workspace rules are off', 'nothing was written'),
          'unwritable',
        )
    }
    let next: T | undefined
    const result = await swapFile(file, SETTINGS_FILE_MAX_BYTES, (current) => {
      const fresh = freshValue(file, current, schema)
      next = change(fresh)
      return sameJson(fresh, next) ? null : `${JSON.stringify(next, null, 2)}\n`
    }).catch((error: unknown) => {
      if (error instanceof UnsafeFileError)
        throw new SettingsError('', `${error.message}; nothing was written`, 'unwritable')
      throw error
    })
    const previous = JSON.stringify(state.value)
    state.value = next as T
    state.hash = result.hash
    state.problem = null
    if (result.written || JSON.stringify(next) !== previous) emitScope(scope)
    return state.value
  }

  const normaliseRule = (change: RuleChange): string => {
    if (!RULE_SCOPES.includes(change.scope))
      throw new SettingsError('scope', 'must be session, local, workspace or user')
    if (!RULE_LISTS.includes(change.list)) throw new SettingsError('list', 'must be allow, ask or deny')
    const parsed = BashRuleSchema.safeParse(change.rule)
    if (!parsed.success) throw firstIssue(parsed.error, ['rule'])
    const syntaxError = options.validateRule?.(parsed.data)
    if (syntaxError) throw new SettingsError('rule', syntaxError)
    if (change.scope === 'session' && !change.sessionId) {
      throw new SettingsError('sessionId', 'a session rule needs the session id')
    }
    return parsed.data
  }

  /** Resolves to the normalised rule once the change is in effect (and on disk for user/workspace). */
  const changeRule = async (change: RuleChange, edit: typeof withRule) => {
    const rule = normaliseRule(change)
    const changed = await serialised(async () => {
      if (change.scope === 'session') {
        const sessionId = change.sessionId!
        const before = sessionRules.get(sessionId) ?? emptyRules()
        const after = edit(before, change.list, rule)
        if (sameJson(after, before)) return false
        sessionRules.set(sessionId, after)
        emit({ scope: 'session', sessionId, rules: after })
        return true
      }
      let edited = false
      const apply = (permissions: PermissionRules): PermissionRules => {
        const after = edit(permissions, change.list, rule)
        edited = !sameJson(after, permissions)
        return after
      }
      if (change.scope === 'local')
        await writeScope<LocalWorkspaceSettings>('local', (fresh) => ({
          workspace: realWorkspace,
          permissions: apply(fresh.permissions),
        }))
      else if (change.scope === 'user')
        await writeScope<UserSettings>('user', (fresh) => ({
          ...fresh,
          permissions: { ...fresh.permissions, ...apply(fresh.permissions) },
        }))
      else
        await writeScope<WorkspaceSettings>('workspace', (fresh) => ({
          ...fresh,
          permissions: apply(fresh.permissions),
        }))
      return edited
    })
    return { rule, changed }
  }

  const reloadScope = (scope: FileScope) =>
    scope === 'user'
      ? rereadFileState(user, userFile, UserSettingsSchema, null)
      : scope === 'local'
        ? rereadFileState(local, localFile, LocalWorkspaceSettingsSchema, null)
        : workspaceDirProblem(workspaceDir).then((problem) =>
            rereadFileState(workspace, workspaceFile, WorkspaceSettingsSchema, problem),
          )

  return {
    userFile,
    workspaceFile,
    localFile,
    workspaceDir: options.workspace,
    user: () => user.value,
    workspace: () => workspace.value,
    warnings: () => [
      ...backups.filter((w) => w !== null),
      ...[user.problem, workspace.problem, local.problem].filter((w) => w !== null),
    ],
    // Each update is validated at once (a bad patch is refused even behind a queued write) and
    // applied again inside the swap, onto whatever is on disk by then.
    async updateUser(patch) {
      applySettingsPatch(user.value, patch, UserSettingsSchema)
      return serialised(() =>
        writeScope<UserSettings>('user', (fresh) => applySettingsPatch(fresh, patch, UserSettingsSchema)),
      )
    },
    async updateWorkspace(patch) {
      applySettingsPatch(workspace.value, patch, WorkspaceSettingsSchema)
      return serialised(() =>
        writeScope<WorkspaceSettings>('workspace', (fresh) =>
          applySettingsPatch(fresh, patch, WorkspaceSettingsSchema),
        ),
      )
    },
    async addRule(change) {
      const { rule } = await changeRule(change, withRule)
      const source = change.scope === 'session' ? `session:${change.sessionId}` : sourceFile(change.scope)
      return { list: change.list, rule, scope: change.scope, source }
    },
    async removeRule(change) {
      return (await changeRule(change, withoutRule)).changed
    },
    rules(sessionId) {
      const session = sessionId ? sessionRules.get(sessionId) : undefined
      return [
        ...(session ? toScopedRules(session, 'session', `session:${sessionId}`) : []),
        ...toScopedRules(local.value.permissions, 'local', localFile),
        ...toScopedRules(workspace.value.permissions, 'workspace', workspaceFile),
        ...toScopedRules(user.value.permissions, 'user', userFile),
      ]
    },
    closeSession(sessionId) {
      sessionRules.delete(sessionId)
    },
    reload() {
      return serialised(async () => {
        const result: SettingsReload = { changed: [], problems: [] }
        for (const scope of ['user', 'workspace', 'local'] as const) {
          const outcome = await reloadScope(scope)
          if (outcome === 'changed') {
            result.changed.push(scope)
            emitScope(scope)
          } else if (outcome) result.problems.push(outcome)
        }
        return result
      })
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }

  function sourceFile(scope: FileScope): string {
    return scopeFile[scope]
  }
}

async function requireDirectory(path: string): Promise<void> {
  const stats = await stat(path).catch(() => null)
  if (!stats?.isDirectory()) throw new SettingsError('workspace', `${path} is not an existing directory`)
}

export type { SettingsPatch, SettingsWarning }
