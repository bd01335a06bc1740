import { HARMLESS_ENV_VARIABLES } from '../readonly/env-allowlist'

/**
 * The first GIT_* variable in `env` that is not one of the formatting/pathspec ones a read-only
 * prefix may set: GIT_CONFIG_COUNT/KEY/VALUE, GIT_CONFIG_PARAMETERS, GIT_CONFIG(_GLOBAL|_SYSTEM),
 * GIT_DIR, GIT_EXEC_PATH, GIT_PAGER, GIT_EXTERNAL_DIFF, GIT_SSH_COMMAND, GIT_TRACE (writes a
 * file)… all change which config git reads or what it runs. Null when there is none.
 */
export function findGitEnvironmentVariable(
  env: Readonly<Record<string, string | undefined>> | undefined,
): string | null {
  if (!env) return null
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !name.startsWith('GIT_')) continue
    if (!HARMLESS_ENV_VARIABLES.has(name)) return name
  }
  return null
}
