import { shQuote } from './posix-quote'

/** The dialects that get a shell-init snapshot (seed 000: bash and zsh; Git Bash is bash). */
export type SnapshotDialect = 'bash' | 'zsh' | 'git-bash'

/**
 * The last line of every complete snapshot. The service checks the file ends with it before each
 * use (a truncated file does not), and the command checks the variable it sets after sourcing (a
 * file that fails part-way, corrupt or cut, never reaches it): issue 15.6.
 */
export const SNAPSHOT_SENTINEL_VARIABLE = '__shellgate_snapshot_complete'
export const SNAPSHOT_SENTINEL_LINE = `${SNAPSHOT_SENTINEL_VARIABLE}=1`

/** seed 000: functions, options and aliases are each cut at this many lines. */
export const SNAPSHOT_SECTION_MAX_LINES = 1_000

/**
 * Options that belong to the interactive terminal or would change what an agent's command means
 * (errexit/nounset would turn harmless failures into aborts; xtrace would flood the output).
 */
const BASH_SKIPPED_OPTIONS =
  'errexit|nounset|noexec|xtrace|verbose|monitor|history|histexpand|onecmd|posix|emacs|vi'
// compatNN are off by default and each `shopt -u compatNN` is oddly slow to source (~0.4 ms
// apiece here, most of the snapshot's cost): skipping them keeps the snapshot near bare `bash -c`.
const BASH_SKIPPED_SHOPTS = 'login_shell|restricted_shell|expand_aliases|compat[0-9]+'
const ZSH_SKIPPED_OPTIONS =
  '(no)?(interactive|login|shinstdin|monitor|zle|privileged|singlecommand|restricted|errexit|errreturn|xtrace|verbose|exec|rcs|globalrcs)'

/**
 * The script run as `<shell> -c -l <script>` to write a snapshot file (seed 000): it sources the
 * user's rc file, then writes `unalias -a` (an alias defined before a function would be frozen into
 * it), the functions, the options, the aliases with alias expansion switched on (a non-interactive
 * shell ignores aliases otherwise), and PATH. Git Bash takes PATH from a separate run, and drops
 * the winpty alias, which fails without a TTY.
 */
export function buildSnapshotScript(dialect: SnapshotDialect, snapshotFile: string): string {
  const limit = `head -n ${SNAPSHOT_SECTION_MAX_LINES}`
  const header = `echo '# Shellgate shell-init snapshot (${dialect}): functions, options, aliases, PATH. Safe to delete.'`
  if (dialect === 'zsh') {
    return [
      `__sg_snapshot=${shQuote(snapshotFile)}`,
      '[ -f "$HOME/.zshrc" ] && . "$HOME/.zshrc" </dev/null',
      '{',
      `  ${header}`,
      "  echo 'unalias -a 2>/dev/null || true'",
      `  for __sg_f in \${(ok)functions}; do case "$__sg_f" in _*) ;; *) typeset -f -- "$__sg_f";; esac; done | ${limit}`,
      `  setopt | grep -v -E '^${ZSH_SKIPPED_OPTIONS}$' | sed 's/^/setopt /' | ${limit}`,
      `  alias -L | ${limit}`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: zsh's (q) quoting flag, not a template
      '  print -r -- "export PATH=${(q)PATH}"',
      '} >| "$__sg_snapshot"',
    ].join('\n')
  }
  const rcFile =
    'if [ -f "$HOME/.bashrc" ]; then . "$HOME/.bashrc" </dev/null; elif [ -f "$HOME/.profile" ]; then . "$HOME/.profile" </dev/null; fi'
  return [
    `__sg_snapshot=${shQuote(snapshotFile)}`,
    rcFile,
    '{',
    `  ${header}`,
    "  echo 'unalias -a 2>/dev/null || true'",
    // Plain `declare -f` text, not base64 + eval as the seed does: decoding costs a command
    // substitution and a base64 process on every command (bench/shell.ts measured the snapshot path
    // at 3.6x bare `bash -c` with it). Written by redirection, the text needs no quoting, and
    // `unalias -a` above keeps aliases from being expanded into the bodies when they are read back.
    `  declare -F | awk '{print $NF}' | grep -v '^_' | ${limit} | while read -r __sg_f; do declare -f -- "$__sg_f"; done`,
    `  shopt -p | grep -v -E ' (${BASH_SKIPPED_SHOPTS})$' | ${limit}`,
    `  set -o | awk '$2 == "on" {print $1}' | grep -v -E '^(${BASH_SKIPPED_OPTIONS})$' | sed 's/^/set -o /' | ${limit}`,
    "  echo 'shopt -s expand_aliases'",
    dialect === 'git-bash' ? `  alias -p | grep -v '^alias winpty=' | ${limit}` : `  alias -p | ${limit}`,
    dialect === 'git-bash' ? '  :' : `  printf 'export PATH=%q\\n' "$PATH"`,
    '} >| "$__sg_snapshot"',
  ].join('\n')
}

/** Git Bash: the login PATH, printed by a separate `bash -lc` run (seed 000). */
export const GIT_BASH_PATH_SCRIPT = 'echo "$PATH"'
