/**
 * Every run's wall-clock budget on one shared Node timer (issue 24.4).
 *
 * A Node timer per run costs more than it seems: after each spawn the parent's pages are
 * write-protected by fork, and creating and clearing a Timeout touches the timer lists, their
 * priority queue, libuv's timer handle and the async-id counters, each a page that then faults.
 * Here a run adds its deadline to a set, and the one timer is re-armed only when a deadline
 * earlier than the armed one arrives. Removing a deadline leaves the timer armed: when it fires
 * with nothing due it re-arms for the next deadline, or ends when none is left.
 *
 * The timer is unref'd: it never keeps the process alive by itself. A run in flight always has
 * a referenced handle of its own (the child process, or its pipes), and a budget matters only
 * until the child exits.
 */

export interface Deadline {
  /** performance.now() at which the budget is spent. */
  readonly at: number
  readonly onDue: () => void
}

const pending = new Set<Deadline>()
let timer: NodeJS.Timeout | null = null
let armedAt = Number.POSITIVE_INFINITY

/** Calls `onDue` once, `ms` from now, unless `clearDeadline` comes first. */
export function setDeadline(ms: number, onDue: () => void): Deadline {
  const deadline: Deadline = { at: performance.now() + ms, onDue }
  pending.add(deadline)
  if (deadline.at < armedAt) arm(deadline.at)
  return deadline
}

export function clearDeadline(deadline: Deadline): void {
  pending.delete(deadline)
}

function arm(at: number): void {
  if (timer) clearTimeout(timer)
  armedAt = at
  // setTimeout counts whole ms from the loop's cached clock: round up, never fire early.
  timer = setTimeout(fireDue, Math.max(1, Math.ceil(at - performance.now())))
  timer.unref()
}

function fireDue(): void {
  timer = null
  armedAt = Number.POSITIVE_INFINITY
  const now = performance.now()
  const due: Deadline[] = []
  let next = Number.POSITIVE_INFINITY
  for (const deadline of pending) {
    if (deadline.at <= now) due.push(deadline)
    else if (deadline.at < next) next = deadline.at
  }
  for (const deadline of due) pending.delete(deadline)
  if (next < armedAt) arm(next)
  // Last, earliest first (a late timer may find several due): a handler may set or clear deadlines.
  due.sort((a, b) => a.at - b.at)
  for (const deadline of due) deadline.onDue()
}
