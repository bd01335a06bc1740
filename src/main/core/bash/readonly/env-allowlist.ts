import type { EnvAssignment } from '../verdict'

/**
 * Variables that only change how a read-only command formats its output or which locale it uses.
 * Anything that names a program, a config file or a search path (PAGER, EDITOR, GIT_PAGER, HOME,
 * PATH, LD_PRELOAD, GIT_DIR, GIT_CONFIG_*…) is deliberately absent.
 */
export const HARMLESS_ENV_VARIABLES: ReadonlySet<string> = new Set([
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_COLLATE',
  'LC_CTYPE',
  'LC_MESSAGES',
  'LC_MONETARY',
  'LC_NUMERIC',
  'LC_TIME',
  'TZ',
  'NO_COLOR',
  'FORCE_COLOR',
  'CLICOLOR',
  'CLICOLOR_FORCE',
  'COLORTERM',
  'TERM',
  'COLUMNS',
  'LINES',
  'CI',
  'GREP_COLOR',
  'GREP_COLORS',
  'LS_COLORS',
  'TIME_STYLE',
  'QUOTING_STYLE',
  'BLOCK_SIZE',
  'BLOCKSIZE',
  'DU_BLOCK_SIZE',
  'DF_BLOCK_SIZE',
  'POSIXLY_CORRECT',
  'GIT_TERMINAL_PROMPT',
  'GIT_OPTIONAL_LOCKS',
  'GIT_LITERAL_PATHSPECS',
  'GIT_GLOB_PATHSPECS',
  'GIT_NOGLOB_PATHSPECS',
  'GIT_ICASE_PATHSPECS',
  'GIT_FLUSH',
  'PYTHONIOENCODING',
  'PYTHONUNBUFFERED',
  'RUST_BACKTRACE',
])

/** Why a prefix assignment makes the command not read-only, or null when every one is harmless. */
export function refuseEnvAssignments(assignments: EnvAssignment[]): string | null {
  for (const assignment of assignments) {
    if (!HARMLESS_ENV_VARIABLES.has(assignment.name)) {
      return `setting ${assignment.name} can change what the command runs or reads; only formatting and locale variables are read-only`
    }
    if (assignment.value === null) return `the value of ${assignment.name} is computed at run time`
  }
  return null
}
