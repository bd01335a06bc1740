import type { ExecutionCommand } from '../exec/types'
import { shQuote, toGitBashPath } from './posix-quote'
import { SNAPSHOT_SENTINEL_VARIABLE } from './snapshot-script'
import type { ShellSelection } from './types'

export interface BashCommandLineParts {
  shell: Pick<ShellSelection, 'dialect' | 'path'>
  /** A revalidated snapshot file, or null to run the shell as a login shell. */
  snapshotPath: string | null
  startupScriptPath: string | null
  /** The user's command, exactly as the model wrote it. */
  command: string
  /** Where `pwd -P` goes on exit 0; null for no capture. */
  cwdFile: string | null
  /**
   * The command runs on a terminal (issue 23.1): job control on, so the program becomes the
   * terminal's foreground group and Ctrl+C reaches it, not the sandbox wrapper around the shell.
   */
  jobControl?: boolean
}

/**
 * What a shell needs on its command line to run a terminal command under job control. bash takes
 * `set -m` in the script. zsh does not: a non-interactive zsh with MONITOR set still puts each
 * forked job in a group of its own but never hands it the terminal (it opens no tty unless
 * interactive), so the job stops on its first read or tcsetattr, and `python3 -i` showed nothing.
 * An interactive zsh takes the terminal; `interactive_comments` keeps `#` a comment as in -c mode.
 */
function jobControlFlags(parts: Pick<BashCommandLineParts, 'shell' | 'jobControl'>): string {
  return parts.jobControl && parts.shell.dialect === 'zsh' ? ' -o interactive -o interactive_comments' : ''
}

/**
 * The script handed to the shell (seed 000): the snapshot sourced quietly (a broken snapshot must
 * not break the command), the startup script, then the user command and the cwd capture. Each on
 * its own line, because bash reads aliases a line at a time: an alias defined on the line that uses
 * it is not expanded. The user command goes through eval of one quoted word, so an unbalanced
 * quote or a trailing backslash in it cannot swallow the capture that follows.
 */
export function composeBashScript(parts: BashCommandLineParts): string {
  if (parts.shell.dialect === 'cmd') return composeCmdScript(parts)
  const path = (p: string) => shQuote(parts.shell.dialect === 'git-bash' ? toGitBashPath(p) : p)
  const lines: string[] = []
  // bash and zsh only: dash exits 2 when it cannot hand the terminal back to a group outside its
  // PID namespace (the sandbox's), bash and zsh carry on.
  if (parts.jobControl && (parts.shell.dialect === 'bash' || parts.shell.dialect === 'zsh'))
    lines.push('set -m')
  if (parts.startupScriptPath) lines.push(`. ${path(parts.startupScriptPath)}`)
  const capture = parts.cwdFile ? ` && { pwd -P >| ${path(parts.cwdFile)} 2>/dev/null || true; }` : ''
  lines.push(`eval ${shQuote(parts.command)}${capture}`)
  if (!parts.snapshotPath) return lines.join('\n')
  // A snapshot that fails to source (corrupt, or cut short) never sets its last line's variable:
  // then it is moved aside to `<file>.failed`, which tells the service to capture a new one for the
  // next command, and this command runs once as a login shell instead, with the same lines.
  const snapshot = path(parts.snapshotPath)
  const shell = shQuote(
    parts.shell.dialect === 'git-bash' ? toGitBashPath(parts.shell.path) : parts.shell.path,
  )
  const rest = lines.join('\n')
  return [
    // Unset first: a value inherited from the environment must not vouch for a snapshot that failed.
    `unset ${SNAPSHOT_SENTINEL_VARIABLE}; . ${snapshot} 2>/dev/null`,
    `if [ "\${${SNAPSHOT_SENTINEL_VARIABLE}-}" != 1 ]; then mv -f ${snapshot} ${path(`${parts.snapshotPath}.failed`)} 2>/dev/null; exec ${shell} -l${jobControlFlags(parts)} -c ${shQuote(rest)}; fi`,
    rest,
  ].join('\n')
}

/** cmd has no snapshot (seed 000: bash and zsh only); `cd` prints the directory. */
function composeCmdScript(parts: BashCommandLineParts): string {
  return parts.cwdFile ? `${parts.command} && cd > "${parts.cwdFile}"` : parts.command
}

/**
 * The port command for the script. With a snapshot: `<shell> -c script`. Without one the shell
 * must be a login shell (`-c -l`), which the port's shell mode does not offer, so the `-c` shell
 * execs itself as a login shell: same pid and process group, the posix-bash profile still applies.
 * A zsh terminal command execs itself the same way to become interactive (see jobControlFlags);
 * with a snapshot it reads no startup files (`-f`): the snapshot holds what they set, and a
 * `.zshrc` run again on a terminal would print its banners and prompts into the task.
 */
export function bashToolExecutionCommand(
  shell: Pick<ShellSelection, 'dialect' | 'path'>,
  script: string,
  login: boolean,
  jobControl = false,
): Extract<ExecutionCommand, { mode: 'shell' }> {
  const wantsLogin =
    login && (shell.dialect === 'bash' || shell.dialect === 'zsh' || shell.dialect === 'git-bash')
  const flags = jobControlFlags({ shell, jobControl })
  const self = shQuote(shell.dialect === 'git-bash' ? toGitBashPath(shell.path) : shell.path)
  const command = wantsLogin
    ? `exec ${self} -l${flags} -c ${shQuote(script)}`
    : flags
      ? `exec ${self} -f${flags} -c ${shQuote(script)}`
      : script
  return { mode: 'shell', command, shell: shell.path, shellProfile: 'posix-bash' }
}
