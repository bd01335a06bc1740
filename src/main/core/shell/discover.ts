import { type EnvRecord, toEnvRecord } from '../env/env-keys'
import { discoverPosixShells } from './discover.posix'
import { discoverWin32Shells } from './discover.win32'
import { nodeShellFs } from './shell-fs'
import type { ShellDiscovery, ShellFs, ShellSelection, ShellSettings } from './types'

export type { ShellSettings } from './types'

export interface DiscoverShellsOptions {
  platform: NodeJS.Platform
  env: NodeJS.ProcessEnv | Readonly<EnvRecord>
  settings?: ShellSettings
  /** Default: the real file system. */
  fs?: ShellFs
}

/** Every shell the Bash tool could use here, and the one it would pick now, with why. */
export function discoverShells(options: DiscoverShellsOptions): ShellDiscovery {
  const env = toEnvRecord(options.env)
  const settings = options.settings ?? { kind: 'auto' }
  const fs = options.fs ?? nodeShellFs
  return options.platform === 'win32'
    ? discoverWin32Shells(env, settings, fs)
    : discoverPosixShells(env, settings, fs)
}

/** The shell a new session gets; sessions keep it (see sessions/session-shell.ts). */
export function selectShell(options: DiscoverShellsOptions): ShellSelection {
  return discoverShells(options).selection
}
