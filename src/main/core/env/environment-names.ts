import { autoRunEnv } from './auto-run-env'
import { buildChildEnv } from './child-env'
import type { EnvRecord } from './env-keys'
import { entrySanitisingReport, sanitizeEntryEnvDetailed } from './sanitize-entry'

/**
 * Which names an environment loses on the way to an agent's command, and why (names only, never
 * values). Settings → Environment (`env.report`) and `shellgate env` both show this one answer.
 */
export interface EnvironmentNames {
  /** Moved into the sealed passthrough (children get them back) or removed for good, at entry. */
  entry: { sealedKeys: string[]; droppedKeys: string[] }
  /** Credential-like names agent commands do not get. */
  withheldKeys: string[]
  /** Credential-like names agent commands get because the user passed them through. */
  passedThroughKeys: string[]
  /** Names also removed for commands run without asking (code-injection variables). */
  autoRunRemovedKeys: string[]
}

export function describeEnvironmentNames(options: {
  /** The env Shellgate started with (sanitised or not: sanitising again is idempotent). */
  entryEnv: NodeJS.ProcessEnv | Readonly<EnvRecord>
  /** The env commands start from: the entry env with the login-shell capture merged in. */
  runtimeEnv: NodeJS.ProcessEnv | Readonly<EnvRecord>
  passThrough: readonly string[]
  platform: NodeJS.Platform
}): EnvironmentNames {
  const { platform } = options
  // The process entry sanitised process.env; a caller holding a raw env (tests, embedding) counts too.
  const atEntry = entrySanitisingReport()
  const again = sanitizeEntryEnvDetailed(options.entryEnv, platform)
  const child = buildChildEnv(sanitizeEntryEnvDetailed(options.runtimeEnv, platform).env, {
    platform,
    passThrough: options.passThrough,
  })
  return {
    entry: {
      sealedKeys: union(atEntry.sealedKeys, again.sealedKeys),
      droppedKeys: union(atEntry.droppedKeys, again.droppedKeys),
    },
    withheldKeys: child.withheldKeys,
    passedThroughKeys: child.passedThroughKeys,
    autoRunRemovedKeys: autoRunEnv(child.env, platform).removedKeys,
  }
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])].sort()
}
