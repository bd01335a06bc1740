import type { GitReads } from '../git/git-prints'
import type { FoundLinks } from '../places/found-links'
import type { WalkFilter } from '../places/secret-index'
import type { EnvironmentRead } from './environment-readers'

/** What the read-only policy says about one simple command, with what the whole-line checks need. */
export interface PartVerdict {
  readOnly: boolean
  reason: string
  /** The command name after wrappers, for whole-line rules (git with cd); null when unknown. */
  name: string | null
  /** On a read-only verdict: the words it reads as files or folders, for the place checks. */
  paths?: string[]
  /** For git: the subcommand (`log`, `stash list`), for whole-line rules (partial clones). */
  gitSubcommand?: string
  /** For git: the `-C DIR` words, judged against the workspace by the whole-line rules. */
  gitDirectories?: string[]
  /** For cd/pushd/popd: the words after the name, for the folder each later part runs in. */
  directoryArgs?: string[]
  /** Some words are only known at run time and may name any file. */
  unknownPaths?: boolean
  /** It reads through symlinks it meets inside its folder operands (grep -R, diff DIR DIR). */
  followsLinks?: boolean
  /** For git: what it prints from the repository, judged where the repository is known. */
  gitReads?: GitReads
  /**
   * It opens or lists through the symlinks its walk of the folder operands meets (`find . -exec
   * cat {} +`, `find -L`, `du -L`): how it walks, to judge where each link leads.
   */
  foundLinks?: FoundLinks
  /** It prints what the files under its folder operands hold (grep -r, rg): how it walks them. */
  walks?: WalkFilter | null
  /**
   * The words whose folders it walks, when not every path it reads: git reads its repository
   * around `.`, but `git diff --no-index A B` walks only A and B. Absent: every path.
   */
  walkRoots?: string[]
  /** It prints variables (printenv, declare -p): the credential check asks about them. */
  environmentReads?: EnvironmentRead
}
