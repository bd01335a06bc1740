/** A `gitdir:` file is one short line; anything bigger is not what git writes. */
export const MAX_GITDIR_FILE_BYTES = 32 * 1024

/**
 * The path a `.git` file points at, as written (relative to the file's directory), or null. Read as
 * git reads it (setup.c's read_gitfile_gently): the file starts with `gitdir: `, and the rest, with
 * only trailing CR and LF removed, is the path, spaces and inner newlines included. Trimming
 * spaces or stopping at a newline named another folder than git's (sandbox review).
 */
export function parseGitdirLine(text: string): string | null {
  if (!text.startsWith('gitdir: ')) return null
  const path = text.slice('gitdir: '.length).replace(/[\r\n]+$/, '')
  return path === '' ? null : path
}
