/**
 * `git -c key=value` keys that only change how git shows what it reads (issue 21.5): colours,
 * columns, quoting, abbreviation, date and diff display. Every other key is refused: many run a
 * program (core.pager, diff.external, *.textconv), name a file git reads (diff.orderFile,
 * blame.ignoreRevsFile, include.path), verify signatures with gpg (log.showSignature, format
 * strings with %G), or change which repository or files git trusts (safe.directory, core.worktree).
 */
const DISPLAY_KEYS = new Set([
  'core.quotepath',
  'core.abbrev',
  'log.date',
  'log.decorate',
  'log.abbrevcommit',
  'log.follow',
  'log.mailmap',
  'log.excludedecoration',
  'log.initialdecorationset',
  'diff.renames',
  'diff.renamelimit',
  'diff.noprefix',
  'diff.mnemonicprefix',
  'diff.relative',
  'diff.algorithm',
  'diff.context',
  'diff.interhunkcontext',
  'diff.statgraphwidth',
  'diff.statnamewidth',
  'diff.dirstat',
  'diff.indentheuristic',
  'diff.colormoved',
  'diff.colormovedws',
  'diff.wserrorhighlight',
  'diff.suppressblankempty',
  'diff.ignoresubmodules',
  'grep.linenumber',
  'grep.column',
  'grep.patterntype',
  'grep.extendedregexp',
  'grep.fullname',
  'status.short',
  'status.branch',
  'status.relativepaths',
  'status.showuntrackedfiles',
  'status.aheadbehind',
  'status.renames',
  'status.showstash',
  'branch.sort',
  'tag.sort',
  'blame.coloring',
  'blame.date',
  'blame.showemail',
  'blame.blankboundary',
  'blame.showroot',
  'i18n.logoutputencoding',
  'init.defaultbranch',
])
// Sections every key of which is display only.
const DISPLAY_SECTIONS = new Set(['color', 'column', 'advice'])
// pager.<cmd> is a program when it is not a boolean.
const BOOLEAN = /^(?:true|false|yes|no|on|off|1|0)?$/i

/** Why `git -c SETTING` is not read-only, or null when it only changes the display. */
export function findConfigOverrideProblem(setting: string): string | null {
  const equals = setting.indexOf('=')
  const key = (equals === -1 ? setting : setting.slice(0, equals)).toLowerCase()
  const value = equals === -1 ? '' : setting.slice(equals + 1)
  const section = key.slice(0, key.indexOf('.') === -1 ? 0 : key.indexOf('.'))
  if (DISPLAY_KEYS.has(key) || DISPLAY_SECTIONS.has(section)) return null
  if (section === 'pager' && key.split('.').length === 2 && BOOLEAN.test(value)) return null
  return `git -c sets configuration that can name programs to run: ${key} is not one of the display settings read-only commands may change`
}
