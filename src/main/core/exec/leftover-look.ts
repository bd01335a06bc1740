import { leftoversAfterGrace } from './leftover-grace'
import { findRunEscapees, findRunEscapeesProcfs, type RunEscapees, settled } from './run-marker'
import { groupHasMembers } from './signal-process'

/**
 * What a run's root left behind when it exited normally:
 * - `none`: nothing (or nothing we may look for: Windows has no run tag, and taskkill /T on a
 *   reused pid would hit a stranger's tree);
 * - `left`: processes still running after their grace: end them, await it, and name them;
 * - `unsure`: none seen, but the look may have missed some (a pid wrap): sweep, unawaited.
 */
export type LeftoverVerdict = 'none' | 'left' | 'unsure'

/**
 * The look after every normal exit (issue 15.2). Group and run tag only: the root is gone and its
 * pid may be reused. On Linux the common answer is synchronous, so a run that left nothing settles
 * without a promise hop (issue 24.4); a promise only when something was seen (it gets
 * LEFTOVER_GRACE_MS to end) or where the look is a `ps` call (macOS).
 */
export function lookForLeftovers(
  runId: string,
  rootPid: number,
  platform: NodeJS.Platform,
): LeftoverVerdict | Promise<LeftoverVerdict> {
  if (platform === 'win32') return 'none'
  if (platform === 'linux') {
    const escapees = findRunEscapeesProcfs(runId, rootPid)
    // Rare: a process caught inside execve shows no environment yet; wait for it to show one.
    if (escapees.midExec.length === 0) return judge(escapees, rootPid, platform)
    return settled(runId, escapees).then((pids) =>
      judge({ ...escapees, pids, midExec: [] }, rootPid, platform),
    )
  }
  return findRunEscapees(runId, rootPid, platform).then((escapees) => judge(escapees, rootPid, platform))
}

function judge(
  escapees: RunEscapees,
  rootPid: number,
  platform: NodeJS.Platform,
): LeftoverVerdict | Promise<LeftoverVerdict> {
  if (escapees.noneForked) return 'none'
  const seen = { group: groupHasMembers(rootPid), pids: escapees.pids }
  const missed: LeftoverVerdict = escapees.complete ? 'none' : 'unsure'
  if (!seen.group && seen.pids.length === 0) return missed
  return leftoversAfterGrace(rootPid, seen, platform).then((left) =>
    left.group || left.pids.length > 0 ? 'left' : missed,
  )
}
