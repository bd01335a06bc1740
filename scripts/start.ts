import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { sanitizeEntryEnv } from '../src/main/core/env/sanitize-entry'
import { findElectronBinary } from './electron-binary'

// `npm start`: the desktop app when Electron is installed, browser mode when it is not.
const root = process.cwd()
if (!existsSync('out/main/cli.js') || !existsSync('out/renderer/index.html')) {
  const build = spawn('npx', ['electron-vite', 'build'], { stdio: 'inherit' })
  const code = await new Promise<number | null>((resolve) => build.once('exit', resolve))
  if (code !== 0) process.exit(code ?? 1)
}

const electron = findElectronBinary(root)
const [file, args] = electron.found
  ? [electron.path, ['.']]
  : // No --workspace: the UI asks which folder to work in (offering recent ones) instead of
    // silently using the folder Shellgate itself is in.
    [process.execPath, ['bin/shellgate.js', 'serve', '--open']]
if (!electron.found)
  console.log(`Electron is not available (${electron.reason}); starting browser mode instead.`)

// Sealed before the runtime starts: Node and Electron read NODE_EXTRA_CA_CERTS (and more) while
// booting, before any of Shellgate's own code could keep them from the app's own requests.
const child = spawn(file, args, { stdio: 'inherit', env: sanitizeEntryEnv(process.env, process.platform) })
// Ctrl+C reaches the child through the terminal's process group; we only wait for it to finish.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (signal === 'SIGTERM') child.kill('SIGTERM')
  })
}
child.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
