import type { Stats } from 'node:fs'
import path from 'node:path'
import { HOME_SECRET_PATHS } from '../../secrets/home-secrets'
import { SYSTEM_CONFIG_WITH_CREDENTIALS, SYSTEM_SECRETS } from '../../secrets/system-secrets'
import type { FsLookups } from './fs-lookups'
import { isInside } from './real-paths'

/**
 * A hard link is the same file under a second name: after `ln ~/.ssh/id_rsa notes.txt`, reading
 * the workspace's notes.txt reads the key, and nothing in the name or the path says so. The kernel
 * keeps no list of a file's other names, so a file with more than one is judged by what it is:
 * - readable by its owner alone (mode `0?00`): what keys, tokens, cookies and password files are
 *   made with (ssh, gpg, aws, gh, kubectl, docker, git's credential store, browsers). It may be a
 *   secret under another name, so reading it asks;
 * - otherwise it asks only when it is one of the secrets files themselves (same device and inode):
 *   a `.npmrc` or `.pypirc` left readable by all.
 * pnpm's store and `cp -l` trees are hard links too, and readable by all: they run at once.
 *
 * Only files named on the command line are judged so. A recursive walk sees names and types, not
 * link counts (a stat per file would cost every `grep -r`); planting such a link takes a write by
 * someone who can read the secret, which the sandbox's hidden home rules out for agents' commands.
 */
export function hardLinkReason(
  stats: Stats | null,
  shown: string,
  where: { home: string; shellgateHome: string },
  lookups: FsLookups,
): string | null {
  if (!stats?.isFile() || stats.nlink < 2) return null
  if ((stats.mode & 0o077) === 0)
    return `reads a hard link to a file only its owner may read (it may be a secret under another name): ${shown}`
  const secret = secretFileWithInode(stats, where, lookups)
  return secret ? `reads a hard link to a secrets location (${secret}): ${shown}` : null
}

/** Files in a secrets folder looked at for an inode match; a browser profile's thousands are private anyway. */
const MAX_FILES_PER_FOLDER = 64

/** The secrets file that is this very file, as written in the list (`~/.npmrc`, `/etc/shadow`), or null. */
function secretFileWithInode(
  stats: Stats,
  { home, shellgateHome }: { home: string; shellgateHome: string },
  lookups: FsLookups,
): string | null {
  const same = (file: string) => {
    const other = lookups.lstat(file)
    return other !== null && other.ino === stats.ino && other.dev === stats.dev
  }
  const places = [
    ...HOME_SECRET_PATHS.map((relative) => ({ file: path.join(home, relative), shown: `~/${relative}` })),
    { file: shellgateHome, shown: underHome(shellgateHome, home) },
    ...SYSTEM_SECRETS.map((secret) => ({ file: secret.path, shown: secret.path })),
    ...SYSTEM_CONFIG_WITH_CREDENTIALS.map((file) => ({ file, shown: file })),
  ]
  for (const place of places) {
    const found = lookups.lstat(place.file)
    if (!found) continue
    if (found.isFile() && found.ino === stats.ino && found.dev === stats.dev) return place.shown
    if (!found.isDirectory() || found.dev !== stats.dev) continue
    const entries = lookups.readdir(place.file) ?? []
    for (const entry of entries.slice(0, MAX_FILES_PER_FOLDER)) {
      if (entry.isFile() && same(path.join(place.file, entry.name))) return `${place.shown}/${entry.name}`
    }
  }
  return null
}

function underHome(file: string, home: string): string {
  return isInside(file, home) && file !== home ? `~/${path.relative(home, file)}` : file
}
