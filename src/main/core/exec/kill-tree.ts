import { type KillTreeReport, killPosixTree, type TerminationProfile } from './kill-tree.posix'
import { killWin32Tree } from './kill-tree.win32'
import { nodeSpawn, type SpawnFunction } from './spawn-function'

export type { KillTreeReport, TerminationProfile } from './kill-tree.posix'
export { BASH_TERM_GRACE_MS, PLAIN_TERM_GRACE_MS } from './kill-tree.posix'

export interface KillProcessTreeOptions {
  /** The child; on POSIX it must lead its own process group (spawned with `detached: true`). */
  pid: number
  /** The run's SHELLGATE_RUN_ID: processes carrying it are killed even when they left the tree. */
  runId?: string
  /** 'bash': TERM group + every descendant, KILL after 1.5 s. 'plain' (default): TERM group, KILL after 750 ms. */
  profile?: TerminationProfile
  graceMs?: number
  platform?: NodeJS.Platform
  /** win32: where SystemRoot is read from (default process.env). */
  env?: Record<string, string | undefined>
  /** win32: how taskkill is started (tests record the call). */
  spawnFile?: SpawnFunction
}

/** Terminates a whole process tree and resolves once it is gone (or reports what is left). */
export function killProcessTree(options: KillProcessTreeOptions): Promise<KillTreeReport> {
  const platform = options.platform ?? process.platform
  if (platform === 'win32') {
    return killWin32Tree(options.pid, options.env ?? process.env, options.spawnFile ?? nodeSpawn)
  }
  return killPosixTree({
    pid: options.pid,
    runId: options.runId,
    profile: options.profile ?? 'plain',
    platform,
    graceMs: options.graceMs,
  })
}
