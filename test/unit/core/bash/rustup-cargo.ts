import { existsSync, realpathSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { basename, delimiter, join } from 'node:path'

/**
 * The folder of a cargo that is rustup's proxy, or null. Only the proxy reads a project's
 * `rust-toolchain.toml` and runs the toolchain it names; Debian's own cargo (which `.ci/deps`
 * installs when PATH has none) does not, so tests that show the proxy's behaviour need this one.
 * Looked for on PATH, then where rustup installs it.
 */
export function rustupCargoDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const dirs = [...(env.PATH ?? '').split(delimiter), join(env.HOME ?? homedir(), '.cargo', 'bin')]
  return dirs.find((dir) => dir !== '' && isRustupProxy(dir)) ?? null
}

function isRustupProxy(dir: string): boolean {
  const cargo = join(dir, 'cargo')
  const rustup = join(dir, 'rustup')
  if (!existsSync(cargo) || !existsSync(rustup)) return false
  // Proxies are symlinks or hard links to the rustup binary.
  return basename(realpathSync(cargo)) === 'rustup' || statSync(cargo).ino === statSync(rustup).ino
}
