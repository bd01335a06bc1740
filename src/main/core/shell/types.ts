import type { ShellKind } from '../../../shared/settings'

/** How a command line is written for the shell: bash and zsh share POSIX syntax, cmd does not. */
export type ShellDialect = 'bash' | 'zsh' | 'git-bash' | 'cmd' | 'sh'

/** Why this shell: the user's setting, $SHELL, a PATH search, Git Bash auto-detection, or the system shell. */
export type ShellSelectionSource = 'setting' | 'env-shell' | 'search' | 'auto-git-bash' | 'system'

export interface ShellSelection {
  dialect: ShellDialect
  /** Absolute path (or `cmd.exe` from ComSpec). */
  path: string
  source: ShellSelectionSource
  /** One sentence for `shellgate shells` and Settings. */
  reason: string
  /** Added to the child env of every Bash tool command run by this shell. */
  envOverlay: Record<string, string>
}

export interface ShellCandidate {
  dialect: ShellDialect
  path: string
  /** Where it was found: `$SHELL`, `PATH`, `/usr/bin`, `Program Files`, `git.exe on PATH`… */
  foundIn: string
}

export interface ShellDiscovery {
  candidates: ShellCandidate[]
  selection: ShellSelection
  /** Settings that could not be honoured, each a sentence. */
  problems: string[]
}

/** The file system questions discovery asks; injected so Windows tables run on Linux. */
export interface ShellFs {
  isExecutable(path: string): boolean
}

/** The names a reminder line and `shells` use for a dialect. */
export const SHELL_DISPLAY_NAMES: Record<ShellDialect, string> = {
  bash: 'bash',
  zsh: 'zsh',
  'git-bash': 'Git Bash',
  cmd: 'CMD',
  sh: 'sh',
}

/**
 * GIT_EDITOR=true: a git command that wants an editor (rebase -i, commit without -m) returns at
 * once instead of hanging on an editor nobody can see. SHELL: tools that spawn a sub-shell use the
 * one the command runs in.
 */
export function shellEnvOverlay(dialect: ShellDialect, path: string): Record<string, string> {
  return dialect === 'cmd' ? { GIT_EDITOR: 'true' } : { GIT_EDITOR: 'true', SHELL: path }
}

/** The `shell` part of the user settings. */
export interface ShellSettings {
  kind: ShellKind
  path?: string
}
