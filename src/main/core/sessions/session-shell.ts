import type { ShellFs, ShellSelection } from '../shell/types'
import { SHELL_DISPLAY_NAMES } from '../shell/types'

export type ShellRestoreState = 'restored' | 'fallback' | 'stale'

export interface ShellRestore {
  state: ShellRestoreState
  /** The shell the session runs with from now on. */
  shell: ShellSelection
  /** A line for the model when its shell is not what it may remember; null when nothing changed. */
  reminder: string | null
  /** For logs and Settings. */
  message: string
}

/**
 * The session's shell after a restart (seed 003): its recorded shell when that still runs
 * (restored); else what would be picked now (fallback); else the recorded one, which will fail
 * with a clear spawn error (stale). The model is reminded only when the shell it may remember is
 * not what runs: an auto-detected Git Bash, or a shell with another name.
 */
export function restoreSessionShell(
  recorded: ShellSelection,
  current: ShellSelection | null,
  options: { fs: ShellFs; platform: NodeJS.Platform },
): ShellRestore {
  if (isRunnable(recorded.path, options)) {
    return { state: 'restored', shell: recorded, reminder: null, message: `kept ${recorded.path}` }
  }
  if (current && isRunnable(current.path, options)) {
    const renamed = SHELL_DISPLAY_NAMES[current.dialect] !== SHELL_DISPLAY_NAMES[recorded.dialect]
    const reminder =
      current.source === 'auto-git-bash' || renamed
        ? `The Bash tool shell is ${SHELL_DISPLAY_NAMES[current.dialect]}.`
        : null
    return {
      state: 'fallback',
      shell: current,
      reminder,
      message: `${recorded.path} is gone; using ${current.path}`,
    }
  }
  return {
    state: 'stale',
    shell: recorded,
    reminder: null,
    message: `${recorded.path} is gone and no other shell was found`,
  }
}

function isRunnable(path: string, options: { fs: ShellFs; platform: NodeJS.Platform }): boolean {
  // seed 003: a literal cmd.exe is resolved by Windows itself, so it is not checked on disk.
  if (options.platform === 'win32' && path.toLowerCase() === 'cmd.exe') return true
  return options.fs.isExecutable(path)
}
