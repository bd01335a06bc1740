import { lstat, mkdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import {
  BashRuleSchema,
  type PermissionRules,
  type UserSettings,
  UserSettingsSchema,
  type WorkspaceSettings,
  WorkspaceSettingsSchema,
} from '../../../shared/settings'
import { writeFileAtomic } from './atomic-write'
import { firstIssue, SettingsError } from './settings-error'
import {
  type LocalWorkspaceSettings,
  LocalWorkspaceSettingsSchema,
  localRulesFile,
  workspaceRealPath,
} from './local-workspace-rules'
import { loadSettingsFile, type SettingsWarning } from './settings-file'
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

export interface SettingsStore {
  readonly userFile: string
  readonly workspaceFile: string
  /** This workspace's rules kept on this machine (SHELLGATE_HOME/workspaces/<hash of its real path>.json). */
  readonly localFile: string
  user(): UserSettings
  workspace(): WorkspaceSettings
  /** Files found unusable at open: kept as backups, defaults in effect. */
  warnings(): SettingsWarning[]
  /** Validates the merged result first; a bad patch throws SettingsError and changes nothing. */
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
  onChange(listener: (change: SettingsChange) => void): () => void
}

const USER_SETTINGS_FILE = 'settings.json'
const WORKSPACE_SETTINGS_DIR = '.shellgate'

export async function openSettingsStore(options: SettingsStoreOptions): Promise<SettingsStore> {
  await requireDirectory(options.workspace)
  const userFile = join(options.home, USER_SETTINGS_FILE)
  const workspaceDir = join(options.workspace, WORKSPACE_SETTINGS_DIR)
  const workspaceFile = join(workspaceDir, USER_SETTINGS_FILE)
  const workspaceDirProblem = await realDirectoryProblem(workspaceDir)
  const realWorkspace = await workspaceRealPath(options.workspace)
  const localFile = localRulesFile(options.home, realWorkspace)
  const [userLoaded, workspaceLoaded, localLoaded] = await Promise.all([
    loadSettingsFile(userFile, UserSettingsSchema),
    workspaceDirProblem
      ? {
          value: WorkspaceSettingsSchema.parse({}),
          warning: { file: workspaceFile, reason: workspaceDirProblem, backupPath: null },
        }
      : loadSettingsFile(workspaceFile, WorkspaceSettingsSchema, new Date(), { keepInPlace: true }),
    loadSettingsFile(localFile, LocalWorkspaceSettingsSchema),
  ])
  let user = userLoaded.value
  let workspace = workspaceLoaded.value
  let local = localLoaded.value
  const warnings = [userLoaded.warning, workspaceLoaded.warning, localLoaded.warning].filter(
    (w) => w !== null,
  )
  // A file we could not back up must never be replaced by defaults.
  const frozen = new Set(warnings.filter((w) => w.backupPath === null).map((w) => w.file))
  const sessionRules = new Map<string, PermissionRules>()
  const listeners = new Set<(change: SettingsChange) => void>()
  let writes: Promise<unknown> = Promise.resolve()

  const emit = (change: SettingsChange) => {
    for (const listener of listeners) listener(change)
  }

  /** One write at a time, so two concurrent updates cannot lose each other's changes. */
  const serialised = <T>(task: () => Promise<T>): Promise<T> => {
    const next = writes.then(task, task)
    writes = next.catch(() => {})
    return next
  }

  const persist = async (file: string, dir: string, value: unknown) => {
    if (frozen.has(file)) {
      throw new SettingsError(
        '',
        `${file} is unusable and could not be backed up; fix or remove it first`,
        'unwritable',
      )
    }
    await mkdir(dir, { recursive: true, mode: 0o700 })
    await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`)
  }

  const saveUser = async (next: UserSettings) => {
    await persist(userFile, options.home, next)
    user = next
    emit({ scope: 'user', settings: user })
    return user
  }

  const saveWorkspace = async (next: WorkspaceSettings) => {
    // Checked again at every write: any command that ran since start may have planted a symlink
    // there, and writing through it would replace a file outside the workspace.
    const problem = await realDirectoryProblem(workspaceDir)
    if (problem)
      throw new SettingsError(
        '',
        problem.replace('workspace rules are off', 'nothing was written'),
        'unwritable',
      )
    await persist(workspaceFile, workspaceDir, next)
    workspace = next
    emit({ scope: 'workspace', settings: workspace })
    return workspace
  }

  const saveLocal = async (permissions: PermissionRules) => {
    const next: LocalWorkspaceSettings = { workspace: realWorkspace, permissions }
    await persist(localFile, join(options.home, 'workspaces'), next)
    local = next
    emit({ scope: 'local', settings: local })
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
        if (sameRules(after, before)) return false
        sessionRules.set(sessionId, after)
        emit({ scope: 'session', sessionId, rules: after })
        return true
      }
      if (change.scope === 'local') {
        const after = edit(local.permissions, change.list, rule)
        if (sameRules(after, local.permissions)) return false
        await saveLocal(after)
        return true
      }
      const before = change.scope === 'user' ? user.permissions : workspace.permissions
      const after = edit(before, change.list, rule)
      if (sameRules(after, before)) return false
      if (change.scope === 'user') await saveUser({ ...user, permissions: { ...user.permissions, ...after } })
      else await saveWorkspace({ ...workspace, permissions: after })
      return true
    })
    return { rule, changed }
  }

  return {
    userFile,
    workspaceFile,
    localFile,
    user: () => user,
    workspace: () => workspace,
    warnings: () => [...warnings],
    // Each update is validated at once (a bad patch is refused even behind a queued write) and
    // merged again inside the queue, onto whatever the previous write left.
    async updateUser(patch) {
      applySettingsPatch(user, patch, UserSettingsSchema)
      return serialised(() => saveUser(applySettingsPatch(user, patch, UserSettingsSchema)))
    },
    async updateWorkspace(patch) {
      applySettingsPatch(workspace, patch, WorkspaceSettingsSchema)
      return serialised(() => saveWorkspace(applySettingsPatch(workspace, patch, WorkspaceSettingsSchema)))
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
        ...toScopedRules(local.permissions, 'local', localFile),
        ...toScopedRules(workspace.permissions, 'workspace', workspaceFile),
        ...toScopedRules(user.permissions, 'user', userFile),
      ]
    },
    closeSession(sessionId) {
      sessionRules.delete(sessionId)
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }

  function sourceFile(scope: 'user' | 'workspace' | 'local'): string {
    if (scope === 'local') return localFile
    return scope === 'user' ? userFile : workspaceFile
  }
}

function sameRules(a: PermissionRules, b: PermissionRules): boolean {
  return RULE_LISTS.every(
    (list) => a[list].length === b[list].length && a[list].every((r, i) => r === b[list][i]),
  )
}

/**
 * A cloned repository controls its own `.shellgate`: if it is a symlink, reading would take rules
 * from (and writing would put files into) a folder the repository chose. Refused, with the reason.
 */
async function realDirectoryProblem(path: string): Promise<string | null> {
  const stats = await lstat(path).catch((error: NodeJS.ErrnoException) =>
    error.code === 'ENOENT' ? null : error,
  )
  if (stats === null) return null
  if (stats instanceof Error) return `its folder cannot be read: ${stats.message}`
  if (stats.isSymbolicLink())
    return `its folder ${path} is a symlink, which is refused; workspace rules are off`
  if (!stats.isDirectory()) return `${path} is not a folder; workspace rules are off`
  return null
}

async function requireDirectory(path: string): Promise<void> {
  const stats = await stat(path).catch(() => null)
  if (!stats?.isDirectory()) throw new SettingsError('workspace', `${path} is not an existing directory`)
}

export type { SettingsPatch, SettingsWarning }
