/** A `gitdir:` file is one short line; anything bigger is not what git writes. */
export const MAX_GITDIR_FILE_BYTES = 32 * 1024

/** The path a `.git` file points at, as written (relative to the file's directory), or null. */
export function parseGitdirLine(text: string): string | null {
  return /^gitdir: *(.+?)\s*$/m.exec(text)?.[1] ?? null
}
