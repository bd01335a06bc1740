#!/usr/bin/env node
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

// An agent's hook runs this on every command it makes (issue 20): what is not needed is not loaded.
const args = process.argv.slice(2)
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  process.stdout.write(`${manifest.version}\n`)
  process.exit(0)
}

const cli = fileURLToPath(new URL('../out/main/cli.js', import.meta.url))
if (!existsSync(cli)) {
  process.stderr.write('shellgate: the build is missing (out/main/cli.js); run `npm run build` first\n')
  process.exit(2)
}

// Node reads NODE_EXTRA_CA_CERTS while it starts, before any of our code could seal it, so the
// app's own TLS would trust the user's extra CA. Start once more with it moved into the sealed
// passthrough, where only child processes get it back (issue 4: the app never reads sealed values).
// hook and ticket open no TLS connection of their own (only the hub socket), so they skip the
// second start; a hub they start goes through this file again and is started clean.
const PASSTHROUGH = 'SHELLGATE_TOOL_ENV_PASSTHROUGH_JSON'
const WITHOUT_TLS = new Set(['hook', 'ticket'])
if (process.env.NODE_EXTRA_CA_CERTS !== undefined && !WITHOUT_TLS.has(args[0] ?? '')) {
  const { spawn } = await import('node:child_process')
  const env = { ...process.env }
  let sealed = {}
  try {
    const parsed = JSON.parse(env[PASSTHROUGH] ?? '{}')
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) sealed = parsed
  } catch {
    // A malformed passthrough seals nothing; the CLI's own sanitiser says the same.
  }
  sealed.NODE_EXTRA_CA_CERTS = env.NODE_EXTRA_CA_CERTS
  delete env.NODE_EXTRA_CA_CERTS
  env[PASSTHROUGH] = JSON.stringify(sealed)
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...args], {
    env,
    stdio: 'inherit',
  })
  // Ctrl+C reaches the whole terminal group; a SIGTERM sent to this pid alone is passed on.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal)
    else process.exit(code ?? 1)
  })
} else {
  await import(cli)
}
