import type { FsLookups } from './fs-lookups'
import { type FolderLinks, findLinksBelow, type WalkFilter } from './secret-index'

/** How a command meets the symlinks under its folder operands (issue 21, fourth review). */
export interface FoundLinks {
  /** Which names it hands on or lists: find's own `-name` tests, or every name. */
  filter: WalkFilter
  /**
   * It walks into the folders links lead to (`find -L`, `du -L`, `ls -RL`), and so meets their
   * links too; otherwise it only hands each link it finds to a reader (`find -exec cat {} +`).
   */
  intoFolders: boolean
}

/** Any name, no folder skipped: a listing walker such as `du -L` or `find -L` sees them all. */
export const EVERY_NAME: WalkFilter = {
  skipsHidden: false,
  skipsFolder: () => false,
  readsFile: () => true,
  key: 'every-name',
}

const MAX_LINKED_FOLDERS = 32

/**
 * Every symlink the command meets below `root`: those under it, and, when it walks into linked
 * folders, those under each folder a link leads to, again and again (each folder once).
 */
export function findLinksReached(root: string, how: FoundLinks, lookups: FsLookups): FolderLinks {
  const links: string[] = []
  const queue = [root]
  const seen = new Set<string>()
  while (queue.length > 0) {
    const folder = queue.shift() as string
    const real = lookups.realFolder(folder)
    if (real === null || seen.has(real)) continue
    seen.add(real)
    if (seen.size > MAX_LINKED_FOLDERS)
      return { unknown: `its links lead to more than ${MAX_LINKED_FOLDERS} folders, too many to follow` }
    const found = findLinksBelow(folder, how.filter, lookups)
    if ('unknown' in found) return found
    links.push(...found.links)
    if (how.intoFolders)
      for (const link of found.links) if (lookups.stat(link)?.isDirectory()) queue.push(link)
  }
  return { links }
}
