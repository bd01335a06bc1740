#!/usr/bin/env node
'use strict'
// CommonJS (bin/package.json says so): an agent's hook runs this on every command it makes
// (issue 20.6), and Node's ES module loader alone costs about 10 ms of CPU to start. `--version`,
// `hook`, `ticket` and `exec` with a hub never start it; every other command loads the ESM CLI
// (out/main/cli.js) by import().
const { existsSync, readFileSync } = require('node:fs')
const path = require('node:path')

const args = process.argv.slice(2)
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'))
  process.stdout.write(`${manifest.version}\n`)
  process.exit(0)
}

// The commands that only talk to a running hub have their own bundle: one CommonJS file, the
// same commands without the CLI's table and chunks (hub-client-cli.vite.config.ts).
const cli = path.join(__dirname, '..', 'out', 'main', 'cli.js')
const hubClientCli = path.join(__dirname, '..', 'out', 'main', 'hub-client-cli.cjs')
const isHook = args[0] === 'hook' && args[1] !== '--help' && args[1] !== '-h'
const isHubClient = isHook || args[0] === 'ticket' || args[0] === 'exec'
for (const entry of isHubClient ? [cli, hubClientCli] : [cli]) {
  if (!existsSync(entry)) {
    process.stderr.write(
      `shellgate: the build is missing (out/main/${path.basename(entry)}); run \`npm run build\` first\n`,
    )
    process.exit(2)
  }
}

// Node reads NODE_EXTRA_CA_CERTS while it starts, before any of our code could seal it, so the
// app's own TLS would trust the user's extra CA. Start once more with it moved into the sealed
// passthrough, where only child processes get it back (issue 4: the app never reads sealed values).
// hook and ticket open no TLS connection of their own (only the hub socket), so they skip the
// second start; a hub they start goes through this file again and is started clean.
const PASSTHROUGH = 'SHELLGATE_TOOL_ENV_PASSTHROUGH_JSON'
const WITHOUT_TLS = new Set(['hook', 'ticket'])
if (process.env.NODE_EXTRA_CA_CERTS !== undefined && !WITHOUT_TLS.has(args[0] ?? '')) {
  const { spawn } = require('node:child_process')
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
  const child = spawn(process.execPath, [...process.execArgv, __filename, ...args], { env, stdio: 'inherit' })
  // Ctrl+C reaches the whole terminal group; a SIGTERM sent to this pid alone is passed on.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal)
    else process.exit(code ?? 1)
  })
} else if (isHubClient) {
  const bundle = require(hubClientCli)
  const ran = isHook ? bundle.runHookCli(args.slice(1)) : bundle.runHubClientCommand(args[0], args.slice(1))
  ran.then(
    (code) => {
      // null: `exec` found no hub, and the whole Bash tool path is in the full CLI only.
      if (code === null) startFullCli()
      else process.exitCode = code
    },
    (error) => {
      // Never a silent pass: an agent client reads exit 1 as "proceed" and 2 as "blocked" (Claude
      // Code, Gemini CLI), so a hook that failed blocks the command and says why.
      process.stderr.write(
        `shellgate ${args[0]}: ${error instanceof Error ? error.message : String(error)}\n`,
      )
      process.exitCode = 2
    },
  )
} else {
  startFullCli()
}

function startFullCli() {
  // A file URL: an absolute path is not a valid import() specifier on Windows.
  import(require('node:url').pathToFileURL(cli).href)
}
