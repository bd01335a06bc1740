import { sanitizeProcessEnvInPlace } from './core/env/sanitize-entry'

// Before anything else is loaded: proxies and certificates are sealed for children, NODE_ENV and
// telemetry variables dropped, so no module can read them at import time (issue 4).
sanitizeProcessEnvInPlace(process.env, process.platform)
const { runCli } = await import('./cli/main')
const { abortOnSignals } = await import('./cli/abort-on-signals')

// The headless entry point (`shellgate …`).
const signal = abortOnSignals()
const exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stdoutBytes: (bytes) => process.stdout.write(bytes),
  stderr: (text) => process.stderr.write(text),
  stdin: process.stdin.isTTY ? null : process.stdin,
  terminal: process.stdin.isTTY ? process.stdin : null,
  env: process.env,
  cwd: process.cwd(),
  signal,
})
process.exitCode = exitCode
