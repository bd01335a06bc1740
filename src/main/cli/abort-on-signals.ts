/**
 * Signals abort the running command so it can stop what it started (tasks, approvals, the UI
 * server); a second signal exits at once. Whatever the command is waiting on, the process ends
 * within the grace: process.exit() itself can hang (it joins libuv's threads, and one blocked in
 * open() on a FIFO never returns), so the last resort is the signal's own default action, which the
 * kernel carries out.
 */
const SIGNAL_GRACE_MS = 8_000

export function abortOnSignals(): AbortSignal {
  const controller = new AbortController()
  let signalled = false
  const dieBy = (signal: NodeJS.Signals) => {
    process.removeAllListeners(signal)
    process.kill(process.pid, signal)
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (signalled) dieBy(signal)
      signalled = true
      controller.abort(new Error(`received ${signal}`))
      setTimeout(() => {
        process.stderr.write(
          `shellgate: still busy ${SIGNAL_GRACE_MS / 1000} s after ${signal}; exiting now\n`,
        )
        dieBy(signal)
      }, SIGNAL_GRACE_MS).unref()
    })
  }
  return controller.signal
}
