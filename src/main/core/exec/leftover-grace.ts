import { readFileSync } from 'node:fs'
import { groupHasMembers } from './signal-process'

/**
 * How long processes seen after a run's root exited get to end by themselves before they count
 * as left behind. A sandboxed run needs it: bwrap's outer monitor exits as soon as its namespace's
 * init reports the command's status, while that init is still on its way out (killed by
 * --die-with-parent, or exiting itself). On a loaded machine the look can catch it running, and a
 * command that left nothing behind would be told it had.
 */
export const LEFTOVER_GRACE_MS = 100
const LEFTOVER_POLL_MS = 5

export interface Leftovers {
  /** Some process still sits in the root's process group. */
  group: boolean
  /** Tagged processes outside the group (`setsid` escapees). */
  pids: number[]
}

/** The leftovers still alive once each had up to LEFTOVER_GRACE_MS to end; none when all ended. */
export async function leftoversAfterGrace(
  rootPid: number,
  seen: Leftovers,
  platform: NodeJS.Platform,
  graceMs = LEFTOVER_GRACE_MS,
): Promise<Leftovers> {
  const deadline = performance.now() + graceMs
  let now = seen
  while (now.group || now.pids.length > 0) {
    if (performance.now() >= deadline) return now
    await new Promise((wake) => setTimeout(wake, LEFTOVER_POLL_MS))
    now = {
      group: now.group && groupHasMembers(rootPid),
      pids: now.pids.filter((pid) => isRunning(pid, platform)),
    }
  }
  return now
}

/** Alive and not a zombie: a zombie runs nothing, and its new parent reaps it. */
function isRunning(pid: number, platform: NodeJS.Platform): boolean {
  if (platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
      const state = stat.charAt(stat.lastIndexOf(')') + 2)
      return state !== 'Z' && state !== 'X'
    } catch {
      return false
    }
  }
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
