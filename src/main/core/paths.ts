import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'

/** SHELLGATE_HOME when set (made absolute), else ~/.shellgate. */
export function resolveShellgateHome(env: NodeJS.ProcessEnv, home: string = homedir()): string {
  const configured = env.SHELLGATE_HOME?.trim()
  if (configured) return isAbsolute(configured) ? configured : resolve(configured)
  return join(home, '.shellgate')
}
