import { realpathSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { swapFile } from '../settings/compare-and-swap'
import { contentHash, parseJsonQuietly, readOwnedFile } from '../settings/owned-file'
import type { RuleSet } from './permission-types'

/**
 * A repository's own `.shellgate/settings.json` may be hostile: a cloned project could ship
 * `allow: ["*"]` and have every command run unasked. Its deny and ask rules can only restrict, so
 * they always apply; its allow rules apply only while they are exactly the list the person
 * accepted. Trust is the hash of that list in canonical form, kept with the list itself so the UI
 * can say what changed: a rule added, edited or deleted in the file, or brought back by a `git
 * pull` after the person deleted it, makes the file untrusted until the person trusts it again.
 */
export const WORKSPACE_TRUST_FILE = 'trusted-workspace-rules.json'
const TRUST_FILE_MAX_BYTES = 4 * 1024 * 1024

const TrustRecordSchema = z.object({
  /** sha256 of canonicalAllowRules(rules). */
  hash: z.string(),
  rules: z.array(z.string()),
  trustedAt: z.string(),
})
type TrustRecord = z.infer<typeof TrustRecordSchema>

const TrustFileSchema = z.object({
  version: z.literal(2),
  /** The workspace's real path → the allow rules the person accepted there. */
  workspaces: z.record(z.string(), TrustRecordSchema),
})
/** Version 1 kept accepted rules per settings file; they carry over as an accepted list. */
const TrustFileV1Schema = z.object({
  version: z.literal(1),
  files: z.record(z.string(), z.array(z.string())),
})

export interface WorkspaceTrustState {
  /** The allow rules in the file are exactly the accepted ones (or there are none). */
  trusted: boolean
  /** In the file but not accepted (new, or an edited form of an accepted rule). */
  added: string[]
  /** Accepted but no longer in the file (deleted, or the old form of an edited rule). */
  removed: string[]
  /** When the person last accepted this workspace's rules; null if never. */
  trustedAt: string | null
}

export interface WorkspaceTrust {
  readonly file: string
  state(workspace: string, allow: readonly string[]): WorkspaceTrustState
  /** All of `allow` when it is exactly the accepted list, else none of it. */
  trustedRules(workspace: string, allow: readonly string[]): ReadonlySet<string>
  /** The person accepts `allow` exactly as it is now (the Trust button). */
  trust(workspace: string, allow: readonly string[]): Promise<void>
  /**
   * The person changed the workspace's allow list through Shellgate (added a rule in Settings or
   * from an approval card, deleted one): the same change is made to the accepted list, so a
   * trusted file stays trusted and an untrusted one stays untrusted with the same difference.
   */
  amend(workspace: string, change: { add?: readonly string[]; remove?: readonly string[] }): Promise<void>
  /** Re-reads the records (after an edit on disk); true when they changed. */
  reload(): Promise<boolean>
  onChange(listener: () => void): () => void
}

/** Order and repeats do not change what an allow list allows; anything else does. */
export function canonicalAllowRules(rules: readonly string[]): string[] {
  return [...new Set(rules.map((rule) => rule.trim()))].sort()
}

export function allowRulesHash(rules: readonly string[]): string {
  return contentHash(JSON.stringify(canonicalAllowRules(rules)))
}

export async function loadWorkspaceTrust(
  home: string,
  now: () => Date = () => new Date(),
): Promise<WorkspaceTrust> {
  const file = join(home, WORKSPACE_TRUST_FILE)
  let records = await readRecords(file)
  const listeners = new Set<() => void>()

  const update = async (workspace: string, edit: (record: TrustRecord | undefined) => string[]) => {
    const key = realWorkspacePath(workspace)
    const result = await swapFile(file, TRUST_FILE_MAX_BYTES, (current) => {
      // Re-applied on the records as they are on disk, so another writer's records are kept.
      const fresh = current ? parseRecords(current.text) : {}
      const rules = canonicalAllowRules(edit(fresh[key]))
      const next = { ...fresh, [key]: { hash: allowRulesHash(rules), rules, trustedAt: now().toISOString() } }
      return `${JSON.stringify({ version: 2, workspaces: next }, null, 2)}\n`
    })
    records = parseRecords(result.text ?? '')
    for (const listener of listeners) listener()
  }

  const state = (workspace: string, allow: readonly string[]): WorkspaceTrustState => {
    const record = records[realWorkspacePath(workspace)]
    const current = canonicalAllowRules(allow)
    const accepted = new Set(record?.rules ?? [])
    const added = current.filter((rule) => !accepted.has(rule))
    const now = new Set(current)
    const removed = [...accepted].filter((rule) => !now.has(rule))
    const trusted = current.length === 0 || (record !== undefined && record.hash === allowRulesHash(current))
    return { trusted, added, removed, trustedAt: record?.trustedAt ?? null }
  }

  return {
    file,
    state,
    trustedRules: (workspace, allow) => new Set(state(workspace, allow).trusted ? allow : []),
    trust: (workspace, allow) => update(workspace, () => [...allow]),
    amend: (workspace, change) =>
      update(workspace, (record) => {
        const remove = new Set(canonicalAllowRules(change.remove ?? []))
        return [...(record?.rules ?? []), ...(change.add ?? [])].filter((rule) => !remove.has(rule.trim()))
      }),
    async reload() {
      const next = await readRecords(file)
      if (JSON.stringify(next) === JSON.stringify(records)) return false
      records = next
      for (const listener of listeners) listener()
      return true
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/** An unreadable or planted trust file trusts nothing: the safe direction, and the person can trust again. */
async function readRecords(file: string): Promise<Record<string, TrustRecord>> {
  const content = await readOwnedFile(file, TRUST_FILE_MAX_BYTES).catch(() => null)
  return content ? parseRecords(content.text) : {}
}

function parseRecords(text: string): Record<string, TrustRecord> {
  const json = parseJsonQuietly(text)
  if (!json.ok) return {}
  const v2 = TrustFileSchema.safeParse(json.value)
  if (v2.success) return v2.data.workspaces
  const v1 = TrustFileV1Schema.safeParse(json.value)
  if (!v1.success) return {}
  const migrated: Record<string, TrustRecord> = {}
  for (const [settingsFile, rules] of Object.entries(v1.data.files)) {
    const canonical = canonicalAllowRules(rules)
    migrated[realWorkspacePath(dirname(dirname(settingsFile)))] = {
      hash: allowRulesHash(canonical),
      rules: canonical,
      trustedAt: new Date(0).toISOString(),
    }
  }
  return migrated
}

/** Trust follows the folder, not the name it was reached by; a folder that is gone keeps its name. */
function realWorkspacePath(workspace: string): string {
  try {
    return realpathSync.native(workspace)
  } catch {
    return workspace
  }
}

/** The rule sets with the workspace file's allow rules taken out unless trusted, and those rules named. */
export function applyWorkspaceTrust(
  ruleSets: readonly RuleSet[],
  workspaceFile: string,
  trusted: ReadonlySet<string>,
): { ruleSets: RuleSet[]; untrusted: string[] } {
  const untrusted: string[] = []
  const filtered = ruleSets.map((set) => {
    if (set.source !== 'workspace' || set.file !== workspaceFile) return set
    const allow = set.rules.allow.filter((rule) => {
      if (trusted.has(rule)) return true
      untrusted.push(rule)
      return false
    })
    return { ...set, rules: { ...set.rules, allow } }
  })
  return { ruleSets: filtered, untrusted }
}
