/**
 * The only place the executor sends signals on POSIX. kill(0) hits our own group, kill(-1) every
 * process we may signal, and pid 1 is init: a bug that passes any of them must do nothing.
 */
export function signalPid(pid: number, signal: NodeJS.Signals): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 1) return false
  return sendSignal(pid, signal)
}

/** Signals every member of process group `pgid` (the group a detached child leads). */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  if (!Number.isSafeInteger(pgid) || pgid <= 1) return false
  return sendSignal(-pgid, signal)
}

function sendSignal(target: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(target, signal)
    return true
  } catch {
    // ESRCH: already gone; EPERM: not ours to signal. Either way there is nothing more to do.
    return false
  }
}

/** Whether process group `pgid` still has a member (zombies count: they are checked later). */
export function groupHasMembers(pgid: number): boolean {
  if (!Number.isSafeInteger(pgid) || pgid <= 1) return false
  // The look after every exit asks this, and the usual answer is ESRCH, which process.kill throws.
  // Capturing that error's stack trace costs three times the syscall (issue 24.4): it is never read.
  const stackTraceLimit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    process.kill(-pgid, 0)
    return true
  } catch (error) {
    // EPERM: a member exists that we may not signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  } finally {
    Error.stackTraceLimit = stackTraceLimit
  }
}
