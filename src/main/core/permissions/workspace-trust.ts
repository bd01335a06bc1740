import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../settings/atomic-write'
import type { RuleSet } from './permission-types'

/**
 * A repository's own `.shellgate/settings.json` may be hostile: a cloned project could ship
 * `allow: ["*"]` and have every command run unasked. Its deny and ask rules can only restrict, so
 * they always apply; its allow rules apply only once the user has accepted them here, either by
 * saving them through Shellgate (always allow, Settings) or by trusting the file's rules.
 */
export const WORKSPACE_TRUST_FILE = 'trusted-workspace-rules.json'

const TrustFileSchema = z.object({
  version: z.literal(1),
  /** Workspace settings file → the allow rules the user accepted from it. */
  files: z.record(z.string(), z.array(z.string())),
})

export interface WorkspaceTrust {
  trustedRules(workspaceFile: string): ReadonlySet<string>
  /** Records rules as accepted by the user (atomic write, 0600). */
  trust(workspaceFile: string, rules: readonly string[]): Promise<void>
}

export async function loadWorkspaceTrust(home: string): Promise<WorkspaceTrust> {
  const file = join(home, WORKSPACE_TRUST_FILE)
  const text = await readFile(file, 'utf8').catch(() => null)
  let files: Record<string, string[]> = {}
  if (text !== null) {
    // An unreadable trust file trusts nothing: the safe direction, and the user can trust again.
    const parsed = TrustFileSchema.safeParse(safeJson(text))
    if (parsed.success) files = parsed.data.files
  }
  let writes: Promise<unknown> = Promise.resolve()
  return {
    trustedRules: (workspaceFile) => new Set(files[workspaceFile] ?? []),
    trust(workspaceFile, rules) {
      const next = writes.then(async () => {
        const merged = [...new Set([...(files[workspaceFile] ?? []), ...rules])]
        const updated = { ...files, [workspaceFile]: merged }
        await writeFileAtomic(file, `${JSON.stringify({ version: 1, files: updated }, null, 2)}\n`)
        files = updated
      })
      writes = next.catch(() => undefined)
      return next
    },
  }
}

/** The rule sets with the workspace file's unaccepted allow rules taken out, and those rules named. */
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

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}
