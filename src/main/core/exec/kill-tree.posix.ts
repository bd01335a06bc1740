import { descendantsOf, type ProcessEntry, readProcessTable, readProcfsEntry } from './process-table'
import { findTaggedPids } from './run-marker'
import { signalGroup, signalPid } from './signal-process'

/** seed 000: the Bash tool gives its tree 1.5 s after TERM; other commands 750 ms. */
export const BASH_TERM_GRACE_MS = 1_500
export const PLAIN_TERM_GRACE_MS = 750
/** How long we keep checking after KILL before reporting what is left. */
const KILL_CONFIRM_MS = 1_000
const POLL_MS = 20

export type TerminationProfile = 'bash' | 'plain'

export interface PosixKillOptions {
  pid: number
  runId?: string
  profile: TerminationProfile
  platform: NodeJS.Platform
  graceMs?: number
}

export interface KillTreeReport {
  /** Pids that were sent SIGTERM or SIGKILL individually (the group is always signalled). */
  signalledPids: number[]
  /** SIGKILL was needed: something outlived the grace. */
  escalated: boolean
  /** Pids still alive (not zombies) when we gave up; empty when the tree is gone. */
  remaining: number[]
  /** Live processes of the run other than the root when the kill began (group, descendants, tagged). */
  foundPids: number[]
  /** Why the kill could not be confirmed (Windows: taskkill's exit code); null when it was. */
  failure: string | null
  /**
   * The root had already exited (gone, or a zombie not yet reaped) when the kill looked, before any
   * signal was sent: it finished on its own and the kill only found its leftovers (issue 24.1).
   * Windows: taskkill found no such process.
   */
  rootAlreadyExited?: boolean
}

/**
 * TERM (+CONT, since a stopped process does not act on TERM until continued) to the child's group,
 * its tagged processes and, for the bash profile, every descendant found in a snapshot taken
 * before signalling; KILL whatever is left after the grace, re-finding descendants first.
 */
export async function killPosixTree(options: PosixKillOptions): Promise<KillTreeReport> {
  const { pid, runId, profile, platform } = options
  const graceMs = options.graceMs ?? (profile === 'bash' ? BASH_TERM_GRACE_MS : PLAIN_TERM_GRACE_MS)
  const signalled = new Set<number>()
  // pid → start time, so a pid reused by an unrelated process after its owner died is never hit.
  const known = new Map<number, string>()

  const before = await readProcessTable(platform)
  const targets = profile === 'bash' ? descendantsOf(before, pid) : []
  for (const tagged of await taggedEntries(before, runId, platform)) targets.push(tagged)
  for (const entry of targets) known.set(entry.pid, entry.startTime)
  // Read again just before the first signal: reading the whole table takes milliseconds, in which
  // the root can finish and its children with it. A root already gone (or a zombie) cannot have
  // died of the signal, and a child that ended meanwhile is nothing left behind.
  const stillAlive = (entry: ProcessEntry) => {
    if (platform !== 'linux') return entry.state !== 'Z'
    const now = readProcfsEntry(entry.pid)
    return now !== null && now.state !== 'Z' && now.startTime === entry.startTime
  }
  const foundPids = [
    ...new Set(
      [...before.filter((entry) => entry.pgid === pid), ...targets]
        .filter((entry) => entry.pid !== pid && stillAlive(entry))
        .map((entry) => entry.pid),
    ),
  ]
  const root = before.find((entry) => entry.pid === pid)
  const rootAlreadyExited = !root || !stillAlive(root)
  const report = (escalated: boolean, remaining: number[]): KillTreeReport => ({
    signalledPids: [...signalled],
    escalated,
    remaining,
    foundPids,
    failure: remaining.length > 0 ? `${remaining.length} process(es) survived SIGKILL` : null,
    rootAlreadyExited,
  })

  signalGroup(pid, 'SIGTERM')
  signalGroup(pid, 'SIGCONT')
  for (const entry of targets) termPid(entry.pid, signalled)

  const deadline = performance.now() + graceMs
  while (performance.now() < deadline) {
    await sleep(POLL_MS)
    const table = await readProcessTable(platform)
    if (aliveIn(table, pid, known).length > 0) continue
    // Everything we knew of is gone; one last look for tagged processes forked in the meantime.
    const late = (await taggedEntries(table, runId, platform)).filter((entry) => !known.has(entry.pid))
    if (late.length === 0) return report(false, [])
    for (const entry of late) {
      known.set(entry.pid, entry.startTime)
      termPid(entry.pid, signalled)
    }
  }

  const table = await readProcessTable(platform)
  for (const entry of [...descendantsOf(table, pid), ...(await taggedEntries(table, runId, platform))]) {
    known.set(entry.pid, entry.startTime)
  }
  signalGroup(pid, 'SIGKILL')
  for (const entry of aliveIn(table, pid, known)) {
    if (signalPid(entry.pid, 'SIGKILL')) signalled.add(entry.pid)
  }

  const confirmBy = performance.now() + KILL_CONFIRM_MS
  let remaining = aliveIn(table, pid, known)
  while (remaining.length > 0 && performance.now() < confirmBy) {
    await sleep(POLL_MS)
    remaining = aliveIn(await readProcessTable(platform), pid, known)
  }
  return report(
    true,
    remaining.map((entry) => entry.pid),
  )
}

function termPid(pid: number, signalled: Set<number>): void {
  if (signalPid(pid, 'SIGTERM')) signalled.add(pid)
  signalPid(pid, 'SIGCONT')
}

async function taggedEntries(
  table: ProcessEntry[],
  runId: string | undefined,
  platform: NodeJS.Platform,
): Promise<ProcessEntry[]> {
  if (!runId) return []
  const tagged = new Set(await findTaggedPids(runId, platform))
  return table.filter((entry) => tagged.has(entry.pid))
}

/** Live (non-zombie) members of the group plus known processes that are still the same process. */
function aliveIn(table: ProcessEntry[], pgid: number, known: Map<number, string>): ProcessEntry[] {
  return table.filter(
    (entry) => entry.state !== 'Z' && (entry.pgid === pgid || known.get(entry.pid) === entry.startTime),
  )
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
