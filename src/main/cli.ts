import { sanitizeProcessEnvInPlace } from './core/env/sanitize-entry'

// Before anything else is loaded: proxies and certificates are sealed for children, NODE_ENV and
// telemetry variables dropped, so no module can read them at import time (issue 4).
sanitizeProcessEnvInPlace(process.env, process.platform)
const { runCli } = await import('./cli/main')

// The headless entry point (`shellgate …`). Signals abort the running command so it can stop
// what it started (tasks, approvals, the UI server); a second signal exits at once. Whatever the
// command is waiting on, the process ends within the grace: process.exit() itself can hang (it
// joins libuv's threads, and one blocked in open() on a FIFO never returns), so the last resort is
// the signal's own default action, which the kernel carries out.
const SIGNAL_GRACE_MS = 8_000
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
      process.stderr.write(`shellgate: still busy ${SIGNAL_GRACE_MS / 1000} s after ${signal}; exiting now\n`)
      dieBy(signal)
    }, SIGNAL_GRACE_MS).unref()
  })
}

const exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stdoutBytes: (bytes) => process.stdout.write(bytes),
  stderr: (text) => process.stderr.write(text),
  stdin: process.stdin.isTTY ? null : process.stdin,
  terminal: process.stdin.isTTY ? process.stdin : null,
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
})
process.exitCode = exitCode
