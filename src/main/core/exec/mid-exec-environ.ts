import { environAnswer } from './proc-environ'

/**
 * How long a process whose environ read as nothing gets to show one. An execve in flight ends
 * in well under a millisecond; a process that stays empty (started with `env -i`) has lost the
 * run tag for good, and the look must not wait on it long.
 */
export const MID_EXEC_SETTLE_MS = 50
const MID_EXEC_POLL_MS = 1

/**
 * Of the pids whose environ read as empty, those that carry `entry` once they show one: a
 * `setsid` escapee caught inside `exec sleep 30` would otherwise pass for an untagged stranger
 * and outlive its run. Each is read again until it answers or MID_EXEC_SETTLE_MS passes. (Kernel
 * threads never get here: their environ refuses to be read, ESRCH, which reads as `lacks`.)
 */
export async function taggedOnceSettled(pids: readonly number[], entry: string): Promise<number[]> {
  const tagged: number[] = []
  let pending = [...pids]
  const deadline = performance.now() + MID_EXEC_SETTLE_MS
  while (pending.length > 0 && performance.now() < deadline) {
    await new Promise((wake) => setTimeout(wake, MID_EXEC_POLL_MS))
    pending = pending.filter((pid) => {
      const answer = environAnswer(pid, entry)
      if (answer === 'holds') tagged.push(pid)
      return answer === 'empty'
    })
  }
  return tagged
}
