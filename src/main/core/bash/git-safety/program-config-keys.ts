import { entryName, type GitConfigEntry } from './git-config-file'

const FALSE_VALUES = new Set(['false', 'no', 'off', '0', ''])

// Keys whose value names a program (or a hook directory, or turns on a program) that git may run
// during an ordinary read like `git status`, `git diff` or `git log`. Written as
// section[.subsection].key patterns, `*` standing for any subsection.
const PROGRAM_KEYS = [
  'core.fsmonitor',
  'core.pager',
  'core.editor',
  'core.sshcommand',
  'core.askpass',
  'core.hookspath',
  'core.gitproxy',
  'core.alternaterefscommand',
  'sequence.editor',
  'diff.external',
  'diff.*.textconv',
  'diff.*.command',
  'merge.*.driver',
  'filter.*.clean',
  'filter.*.smudge',
  'filter.*.process',
  'gpg.program',
  'gpg.*.program',
  'credential.helper',
  'credential.*.helper',
  'interactive.difffilter',
  'log.showsignature',
  'remote.*.uploadpack',
  'remote.*.receivepack',
  'remote.*.vcs',
  'url.*.insteadof',
  'url.*.pushinsteadof',
  'protocol.allow',
  'protocol.*.allow',
  'uploadpack.packobjectshook',
  'web.browser',
  'browser.*.cmd',
  'browser.*.path',
  'man.*.cmd',
  'man.*.path',
  'difftool.*.cmd',
  'mergetool.*.cmd',
  // Not a program, but as dangerous to a read: git reads and diffs another folder's files as this
  // repository's work tree, so a planted `core.worktree = ~` makes `git diff` print ~/.ssh/id_rsa.
  'core.worktree',
]

function matches(pattern: string, entry: GitConfigEntry): boolean {
  const parts = pattern.split('.')
  const section = parts[0]
  const key = parts[parts.length - 1]
  if (entry.section !== section || entry.key !== key) return false
  return parts.length === 2 ? entry.subsection === null : entry.subsection !== null
}

/** The config name when this entry can make git run a program, else null. */
export function findProgramKey(entry: GitConfigEntry): string | null {
  // pager.<cmd> runs a pager for that subcommand (pager.status = "sh -c …"), unless it is off.
  if (entry.section === 'pager') return isOff(entry) ? null : entryName(entry)
  if (entry.section === 'core' && entry.key === 'fsmonitor') return isOff(entry) ? null : entryName(entry)
  if (entry.section === 'log' && entry.key === 'showsignature') return isOff(entry) ? null : entryName(entry)
  // pretty.<name> and format.pretty formats are used by `git log`; %G/%(signature) there runs gpg.
  if (
    (entry.section === 'pretty' || (entry.section === 'format' && entry.key === 'pretty')) &&
    runsGpg(entry)
  ) {
    return entryName(entry)
  }
  return PROGRAM_KEYS.some((pattern) => matches(pattern, entry)) ? entryName(entry) : null
}

function runsGpg(entry: GitConfigEntry): boolean {
  return entry.value !== null && (entry.value.includes('%G') || entry.value.includes('%(signature'))
}

function isOff(entry: GitConfigEntry): boolean {
  return entry.value !== null && FALSE_VALUES.has(entry.value.toLowerCase())
}
