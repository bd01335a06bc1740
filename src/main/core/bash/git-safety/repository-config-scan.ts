import { homedir } from 'node:os'
import path from 'node:path'
import { readRegularFile } from './bounded-read'
import { parseGitConfig } from './git-config-file'
import { readCommonDir } from './read-hooks'
import { findProgramKey } from './program-config-keys'

/** git itself stops at 10 nested includes. */
const MAX_INCLUDE_DEPTH = 10
/** A repository config larger than this is not something we read in full on every classify. */
export const MAX_CONFIG_BYTES = 1024 * 1024

export interface ConfigFinding {
  /** The config name, e.g. `core.fsmonitor`. */
  key: string
  file: string
}

/**
 * Read the repository's config files as text (never by running git) and follow every include,
 * conditional or not (we do not evaluate includeIf conditions, so we assume they match).
 * Returns the first program-running key, or a problem reading the files, or null.
 */
export function findProgramConfig(gitDir: string): ConfigFinding | { problem: string } | null {
  const files = [path.join(gitDir, 'config'), path.join(gitDir, 'config.worktree')]
  const commonDir = readCommonDir(gitDir)
  if (commonDir) files.push(path.join(commonDir, 'config'), path.join(commonDir, 'config.worktree'))
  for (const file of files) {
    const found = scanFile(file, 0, new Set())
    if (found) return found
  }
  return null
}

function scanFile(
  file: string,
  depth: number,
  seen: Set<string>,
): ConfigFinding | { problem: string } | null {
  if (seen.has(file)) return null
  seen.add(file)
  // Config files and includes may be symlinks (dotfile managers link ~/.gitconfig): the target is
  // still checked to be a regular file of bounded size.
  let data: Buffer | null
  try {
    data = readRegularFile(file, { maxBytes: MAX_CONFIG_BYTES, followSymlinks: true })
  } catch (error) {
    return { problem: (error as Error).message }
  }
  // git ignores config files and includes that do not exist.
  if (data === null) return null
  const { entries, unreadable } = parseGitConfig(data.toString('utf8'))
  if (unreadable.length > 0)
    return { problem: `${file} has a line we cannot read: ${JSON.stringify(unreadable[0])}` }
  for (const entry of entries) {
    const key = findProgramKey(entry)
    if (key) return { key, file }
    const isInclude = (entry.section === 'include' || entry.section === 'includeif') && entry.key === 'path'
    if (!isInclude || !entry.value) continue
    if (depth + 1 > MAX_INCLUDE_DEPTH)
      return { problem: `${file} nests includes deeper than ${MAX_INCLUDE_DEPTH}` }
    const included = resolveIncludePath(entry.value, file)
    if (included === null) return { problem: `${file} includes ${entry.value}, a path we cannot resolve` }
    const found = scanFile(included, depth + 1, seen)
    if (found) return found
  }
  return null
}

/** `~/x` is in the home directory, anything else relative to the including file; `~user/` and `%(prefix)/` are refused. */
function resolveIncludePath(value: string, fromFile: string): string | null {
  if (value === '~' || value.startsWith('~/')) return path.join(homedir(), value.slice(1))
  if (value.startsWith('~') || value.startsWith('%(')) return null
  return path.resolve(path.dirname(fromFile), value)
}
