/** One `key = value` line of a git config file; section and key lowercased as git compares them. */
export interface GitConfigEntry {
  section: string
  /** Case-sensitive, as in `[diff "pdf"]`; null for `[core]`. */
  subsection: string | null
  key: string
  /** null for a bare `key` line, which git reads as true. */
  value: string | null
}

/** The full dotted name git uses: `diff.pdf.textconv`, with the subsection kept as written. */
export function entryName(entry: GitConfigEntry): string {
  return entry.subsection === null
    ? `${entry.section}.${entry.key}`
    : `${entry.section}.${entry.subsection}.${entry.key}`
}
