import type { SnapshotDialect } from './snapshot-script'

/**
 * The options a snapshot replays that change how a word is globbed (issue 21.2), for the verdict:
 * bash's `shopt -s NAME` lines (dotglob, extglob, globstar, nocaseglob, nullglob, failglob,
 * globskipdots, globasciiranges) and zsh's `setopt NAME` lines, lower-cased without `_`. zsh's
 * setopt lists only the options that differ from its defaults (`nocaseglob` when CASE_GLOB is off),
 * so the defaults it does not list as turned off are added.
 */
export function readSnapshotGlobOptions(snapshot: string, dialect: SnapshotDialect): Set<string> {
  const found = new Set<string>()
  const line = dialect === 'zsh' ? /^setopt\s+([A-Za-z_]+)\s*$/gm : /^shopt\s+-s\s+([A-Za-z_]+)\s*$/gm
  for (const match of snapshot.matchAll(line))
    found.add((match[1] as string).toLowerCase().replaceAll('_', ''))
  if (dialect === 'zsh') {
    for (const name of ['caseglob', 'nomatch', 'bareglobqual', 'glob'])
      if (!found.has(`no${name}`)) found.add(name)
  }
  return found
}
