import type { GitSafetyPerCall } from './git-runtime-memo'
import type { FsLookups } from './places/fs-lookups'
import type { PlaceOptions } from './places/read-places'
import type { ShellGlobbing } from './places/shell-globbing'

export interface ClassifyOptions extends PlaceOptions {
  /** The directory the command would run in; git safety is judged from here. */
  cwd: string
  platform?: NodeJS.Platform
  /**
   * The environment the command will inherit, when the caller knows it: GIT_* variables there
   * (GIT_CONFIG_COUNT, GIT_DIR, GIT_EXEC_PATH…) change what git reads and runs.
   */
  env?: Readonly<Record<string, string | undefined>>
  /** How the session's shell globs (its snapshot's options); unknown means every reading at once. */
  globbing?: ShellGlobbing
}

/** Options inside one call: the file system answers are shared by every part and substitution. */
export type CallOptions = ClassifyOptions & { lookups: FsLookups; git: GitSafetyPerCall }

/** For each part, the folders it may run in; null when a cd went somewhere only known at run time. */
export type RunFolders = Array<string[] | null>
