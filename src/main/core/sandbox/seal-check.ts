import { randomBytes } from 'node:crypto'
import { type BigIntStats, lstatSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import { moveAside } from './git-audit'
import { safeReaddir } from './host-paths'
import type { LayoutEntry } from './layout-types'

/**
 * The seal (read-only mounts over `.git/config`, `hooks/`, `info/`, `modules/`, the programs git
 * config names, `<workspace>/.shellgate`) holds only if bwrap mounts it where it was planned. It
 * resolves each destination by name, so a command running at the same time in the same workspace
 * can exchange `.git` with a decoy for the moment the next command's sandbox is set up: the seal
 * then lands on the decoy, and that command writes the real hooks (a red-team finding; the mount
 * sources are pinned, the destinations cannot be). So the seal is also checked after every run:
 * each sealed path as it was when the run was prepared, and what differs is undone.
 * - a sealed file that changed is moved aside, kept for the person to look at, and its bytes from
 *   before the run are put back;
 * - a sealed folder keeps the entries it had: one added or changed is moved aside;
 * - Shellgate's own workspace folder is only reported: the person may change its settings while
 *   a command runs, and those files take effect only once the person trusts them.
 */
const MAX_KEPT_BYTES = 1024 * 1024

type Sealed =
  | { kind: 'missing' }
  | { kind: 'file'; stamp: string; bytes: Buffer | null }
  | { kind: 'dir'; stamp: string; identity: string; children: Map<string, string> }
  | { kind: 'other'; stamp: string }

export interface SealSnapshot {
  entries: Map<string, Sealed>
  /** Each sealed path's folder, by identity: one swapped whole is the git audit's to judge. */
  parents: Map<string, string | null>
}

export function snapshotSeal(protectedPaths: readonly LayoutEntry[]): SealSnapshot {
  const entries = new Map<string, Sealed>()
  const parents = new Map<string, string | null>()
  for (const entry of protectedPaths) {
    entries.set(entry.path, sealedNow(entry.path, true))
    parents.set(dirname(entry.path), identityOf(dirname(entry.path)))
  }
  return { entries, parents }
}

/** What differs from the snapshot, each undone where it can be, as lines for the run's notes. */
export function checkSeal(snapshot: SealSnapshot, workspace: string): string[] {
  const notes: string[] = []
  for (const [path, before] of snapshot.entries) {
    // A git dir renamed away or swapped for another (or a file) is the git audit's: it moves the
    // planted one aside whole, and what is under it is not this seal's any more.
    const parent = snapshot.parents.get(dirname(path))
    if (parent === null || parent !== identityOf(dirname(path))) continue
    const now = sealedNow(path, false)
    const shown = relative(workspace, path) || path
    const ownSettings = basename(path) === '.shellgate' || path.includes('/.shellgate/')
    if (before.kind === 'dir' && now.kind === 'dir' && before.identity === now.identity) {
      for (const [name, stamp] of now.children) {
        if (before.children.get(name) === stamp) continue
        const child = join(path, name)
        notes.push(
          ownSettings
            ? settingsChanged(relative(workspace, child))
            : moveAside(workspace, child, 'it appeared in a sealed folder during the run, past the seal'),
        )
      }
      continue
    }
    if (sameEntry(before, now)) continue
    if (ownSettings) {
      notes.push(settingsChanged(shown))
      continue
    }
    if (now.kind !== 'missing')
      notes.push(moveAside(workspace, path, 'it changed during the run, past the seal'))
    notes.push(...restore(path, before, shown))
  }
  return notes
}

function restore(path: string, before: Sealed, shown: string): string[] {
  if (before.kind !== 'file')
    return before.kind === 'missing'
      ? []
      : [
          `WARNING: sealed ${shown} was replaced during the run; Shellgate moved what replaced it aside. Look at it before you run git here.`,
        ]
  if (before.bytes === null)
    return [
      `WARNING: sealed ${shown} changed during the run and is too large for Shellgate to have kept; it was moved aside. Look at it before you run git here.`,
    ]
  const temporary = join(
    dirname(path),
    `.${basename(path)}.shellgate-restore-${randomBytes(6).toString('hex')}`,
  )
  try {
    writeFileSync(temporary, before.bytes, { flag: 'wx', mode: 0o644 })
    renameSync(temporary, path)
    return [`Shellgate put back ${shown} as it was before the run.`]
  } catch (error) {
    return [
      `WARNING: Shellgate could not put back ${shown} as it was before the run (${(error as Error).message}). Look at it before you run git here.`,
    ]
  }
}

function identityOf(path: string): string | null {
  const stats = lstatOrNull(path)
  return stats?.isDirectory() ? `${stats.dev}:${stats.ino}` : null
}

/** null for a path that cannot be reached (ENOENT, ENOTDIR, EACCES): nothing there to seal. */
function lstatOrNull(path: string) {
  try {
    return lstatSync(path, { throwIfNoEntry: false, bigint: true }) ?? null
  } catch {
    return null
  }
}

function sealedNow(path: string, keepBytes: boolean): Sealed {
  const stats = lstatOrNull(path)
  if (!stats) return { kind: 'missing' }
  const stamp = stampOf(stats)
  if (stats.isFile()) {
    const bytes = keepBytes && stats.size <= BigInt(MAX_KEPT_BYTES) ? readOrNull(path) : null
    return { kind: 'file', stamp, bytes }
  }
  if (!stats.isDirectory()) return { kind: 'other', stamp }
  const children = new Map<string, string>()
  for (const name of safeReaddir(path)) {
    const child = lstatOrNull(join(path, name))
    // A folder by its identity only: what lies inside one is sealed (or reopened, as an existing
    // submodule's git dir under modules/ is) on its own.
    if (child) children.set(name, child.isDirectory() ? `${child.dev}:${child.ino}` : stampOf(child))
  }
  return { kind: 'dir', stamp, identity: `${stats.dev}:${stats.ino}`, children }
}

function sameEntry(before: Sealed, now: Sealed): boolean {
  if (before.kind === 'missing' || now.kind === 'missing') return before.kind === now.kind
  return before.kind === now.kind && before.stamp === now.stamp
}

function readOrNull(path: string): Buffer | null {
  try {
    return readFileSync(path)
  } catch {
    return null
  }
}

function stampOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.mode}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`
}

function settingsChanged(shown: string): string {
  return `WARNING: ${shown} changed while a sandboxed command ran, though it was sealed. Look at it before you trust this workspace's settings again.`
}
