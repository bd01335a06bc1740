import { randomBytes } from 'node:crypto'
import { basename } from 'node:path'
import type { EnvRecord } from './env-keys'
import { entryKeyFate, TOOL_ENV_PASSTHROUGH_KEY } from './sanitize-keys'

/** The order seed 000 tries shells in; $SHELL first because it is what the user's terminal runs. */
export function loginShellCandidates(shellVar: string | undefined): string[] {
  const list = [shellVar?.trim(), '/bin/zsh', '/bin/bash', '/bin/sh'].filter((s): s is string => Boolean(s))
  return [...new Set(list)]
}

/** Directories a GUI-launched process may lack but every probe needs (env, printf, the shell's tools). */
const SYSTEM_PATH_DIRS = ['/usr/local/bin', '/usr/bin', '/bin', '/usr/sbin', '/sbin']

/**
 * Variables that keep well-known rc frameworks from prompting, updating or attaching a terminal
 * multiplexer while we only want their environment. The shell-init snapshot sources the rc files
 * with the same ones (issue 15.6), so an rc can test SHELLGATE_RESOLVING_ENVIRONMENT either way.
 */
export const QUIET_RC_ENV: Readonly<EnvRecord> = {
  TERM: 'dumb',
  CI: '1',
  // oh-my-zsh: no "update now? [Y/n]" question, no insecure-completion prompt, no tmux autostart.
  DISABLE_AUTO_UPDATE: 'true',
  DISABLE_UPDATE_PROMPT: 'true',
  ZSH_DISABLE_COMPFIX: 'true',
  ZSH_TMUX_AUTOSTART: 'false',
  // powerlevel10k: instant prompt writes to the terminal and expects one.
  POWERLEVEL9K_INSTANT_PROMPT: 'off',
  // brew shell hooks would otherwise go to the network.
  HOMEBREW_NO_AUTO_UPDATE: '1',
  // Many rc files already skip heavy setup for VS Code's identical probe; ours gets its own name too.
  VSCODE_RESOLVING_ENVIRONMENT: '1',
  SHELLGATE_RESOLVING_ENVIRONMENT: '1',
}

export interface LoginShellProbe {
  file: string
  args: string[]
  env: EnvRecord
  startMarker: string
  endMarker: string
}

/** `<shell> -ilc 'printf A; env -0; printf B'` with markers nobody's rc can print by chance. */
export function buildLoginShellProbe(shell: string, runtimeEnv: Readonly<EnvRecord>): LoginShellProbe {
  const nonce = randomBytes(12).toString('hex')
  const startMarker = `__SHELLGATE_ENV_START_${nonce}__`
  const endMarker = `__SHELLGATE_ENV_END_${nonce}__`
  const name = basename(shell)
  // Interactive as well as login so ~/.zshrc and ~/.bashrc run too: that is where most PATH edits live.
  const flags = name === 'zsh' || name === 'bash' ? '-ilc' : '-lc'
  const script = `printf '%s' '${startMarker}'; command env -0; printf '%s' '${endMarker}'`
  const env: EnvRecord = {}
  for (const [key, value] of Object.entries(runtimeEnv)) {
    if (key !== TOOL_ENV_PASSTHROUGH_KEY && entryKeyFate(key) === 'keep') env[key] = value
  }
  Object.assign(env, QUIET_RC_ENV)
  const inherited = (env.PATH ?? '').split(':').filter((dir) => dir && !SYSTEM_PATH_DIRS.includes(dir))
  env.PATH = [...SYSTEM_PATH_DIRS, ...inherited].join(':')
  return { file: shell, args: [flags, script], env, startMarker, endMarker }
}

/** The variables printed between the markers, or null when the markers are not both there. */
export function parseLoginShellProbeOutput(stdout: string, probe: LoginShellProbe): EnvRecord | null {
  const start = stdout.indexOf(probe.startMarker)
  if (start === -1) return null
  const from = start + probe.startMarker.length
  const end = stdout.indexOf(probe.endMarker, from)
  if (end === -1) return null
  const env: EnvRecord = {}
  for (const entry of stdout.slice(from, end).split('\0')) {
    const eq = entry.indexOf('=')
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1)
  }
  return env
}
