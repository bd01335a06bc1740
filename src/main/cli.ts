import { sanitizeProcessEnvInPlace } from './core/env/sanitize-entry'

// Before anything else is loaded: proxies and certificates are sealed for children, NODE_ENV and
// telemetry variables dropped, so no module can read them at import time (issue 4).
sanitizeProcessEnvInPlace(process.env, process.platform)
const { runCli } = await import('./cli/main')

// The headless entry point (`shellgate …`). Signals abort the running command so it can stop
// what it started; a second signal exits at once.
const controller = new AbortController()
let signalled = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (signalled) process.exit(130)
    signalled = true
    controller.abort(new Error(`received ${signal}`))
  })
}

const exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdin: process.stdin.isTTY ? null : process.stdin,
  terminal: process.stdin.isTTY ? process.stdin : null,
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
})
process.exitCode = exitCode
