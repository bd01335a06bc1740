import type { SpawnPlan } from './spawn-plan'

/**
 * A plan's descriptors (SpawnPlan.inheritFds) reach an ordinary child as its 3, 4, … through
 * spawn's stdio. A child on a terminal of its own (node-pty) is started with nothing but that
 * terminal, so it takes them itself: a bash of the same user opens `/proc/<this pid>/fd/<n>`,
 * which the kernel answers with the very file this process holds (no name is looked up again),
 * then becomes the plan's program. `-p`: BASH_ENV, ENV and functions from the environment are
 * ignored, so nothing of the command's environment runs here, outside the sandbox.
 */
export function reopenedThroughProc(plan: SpawnPlan, pid = process.pid): SpawnPlan {
  const fds = plan.inheritFds ?? []
  if (fds.length === 0) return plan
  const opens = fds.map((fd, index) => `${index + 3}</proc/${pid}/fd/${fd}`).join(' ')
  return {
    file: '/bin/bash',
    args: ['-p', '-c', `exec ${opens} && exec "$@"`, 'shellgate-fds', plan.file, ...plan.args],
    windowsVerbatimArguments: false,
  }
}
