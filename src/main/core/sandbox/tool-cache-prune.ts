import { randomBytes } from 'node:crypto'
import { lstatSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * Each workspace's private tool caches (tool-caches.ts) hold what its sandboxed runs downloaded:
 * often gigabytes (npm, cargo, go). Nothing else ever removes them, so a person who works in many
 * folders, or deletes a project, would keep every one forever. A workspace's caches go when its
 * folder is gone, or when no sandboxed run has used them for CACHE_IDLE_LIMIT_MS: the next run
 * there downloads again, which is the price of a first run anyway. Folders this code did not make
 * (no WORKSPACE label) are never touched.
 */
export const CACHE_IDLE_LIMIT_MS = 30 * 24 * 60 * 60 * 1000
/** The label's time is the last use; moved forward at most this often, so a run costs no write. */
export const LAST_USE_RESOLUTION_MS = 60 * 60 * 1000
export const WORKSPACE_LABEL = 'WORKSPACE'
const PRUNING_PREFIX = '.pruning-'

export type CacheState = 'in use' | 'idle' | 'workspace gone' | 'unlabelled'

export interface WorkspaceCaches {
  /** SHELLGATE_HOME/sandbox-caches/<key> */
  path: string
  /** The workspace the label names, or null when there is no readable label. */
  workspace: string | null
  lastUsedMs: number | null
  state: CacheState
}

export function privateCachesRoot(dataDir: string): string {
  return join(dataDir, 'sandbox-caches')
}

/** Every workspace's caches under SHELLGATE_HOME, and what pruning would do with each. */
export function listPrivateCaches(
  dataDir: string,
  now = Date.now(),
  idleLimitMs = CACHE_IDLE_LIMIT_MS,
): WorkspaceCaches[] {
  const root = privateCachesRoot(dataDir)
  let names: string[]
  try {
    names = readdirSync(root)
  } catch {
    return []
  }
  return names
    .filter((name) => !name.startsWith(PRUNING_PREFIX))
    .sort()
    .map((name) => cachesAt(join(root, name), now, idleLimitMs))
    .filter((found): found is WorkspaceCaches => found !== null)
}

function cachesAt(path: string, now: number, idleLimitMs: number): WorkspaceCaches | null {
  if (!lstatSync(path, { throwIfNoEntry: false })?.isDirectory()) return null
  const label = join(path, WORKSPACE_LABEL)
  let workspace: string | null = null
  let lastUsedMs: number | null = null
  try {
    const stats = lstatSync(label)
    if (stats.isFile()) {
      workspace = readFileSync(label, 'utf8').replace(/\n$/, '')
      lastUsedMs = stats.mtimeMs
    }
  } catch {
    // No label: not ours to judge.
  }
  if (workspace === null || lastUsedMs === null || !workspace.startsWith('/'))
    return { path, workspace: null, lastUsedMs: null, state: 'unlabelled' }
  const state: CacheState = !folderExists(workspace)
    ? 'workspace gone'
    : now - lastUsedMs > idleLimitMs
      ? 'idle'
      : 'in use'
  return { path, workspace, lastUsedMs, state }
}

function folderExists(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch (error) {
    // A folder we may not look into (EACCES) is still there: only "no such file" means gone.
    return (
      (error as NodeJS.ErrnoException).code !== 'ENOENT' &&
      (error as NodeJS.ErrnoException).code !== 'ENOTDIR'
    )
  }
}

export interface PruneResult {
  removed: WorkspaceCaches[]
  /** Removals that failed, with why (they are tried again next time). */
  failed: Array<{ path: string; reason: string }>
  /** Resolves once the moved-aside folders are deleted (large ones take a while). */
  deleted: Promise<void>
}

/**
 * Removes the caches of gone and idle workspaces. Each is first renamed aside (one atomic step,
 * so a run that prepares from now on makes a fresh folder instead of sharing one being deleted),
 * then looked at again: a run that marked it used between the listing and the rename puts it
 * back. The deletion itself runs in the background; folders left aside by an earlier prune that
 * was cut short are deleted too.
 */
export function prunePrivateCaches(
  dataDir: string,
  now = Date.now(),
  idleLimitMs = CACHE_IDLE_LIMIT_MS,
): PruneResult {
  const root = privateCachesRoot(dataDir)
  const removed: WorkspaceCaches[] = []
  const failed: PruneResult['failed'] = []
  const doomed: string[] = leftoversOf(root)
  for (const caches of listPrivateCaches(dataDir, now, idleLimitMs)) {
    if (caches.state !== 'idle' && caches.state !== 'workspace gone') continue
    const aside = join(root, `${PRUNING_PREFIX}${randomBytes(6).toString('hex')}`)
    try {
      renameSync(caches.path, aside)
    } catch (error) {
      failed.push({ path: caches.path, reason: (error as Error).message })
      continue
    }
    const again = cachesAt(aside, Date.now(), idleLimitMs)
    if (again?.state === 'in use') {
      putBack(aside, caches.path, failed)
      continue
    }
    removed.push(caches)
    doomed.push(aside)
  }
  const deleted = Promise.all(
    doomed.map((path) =>
      rm(path, { recursive: true, force: true, maxRetries: 2 }).catch((error: unknown) => {
        failed.push({ path, reason: (error as Error).message })
      }),
    ),
  ).then(() => undefined)
  return { removed, failed, deleted }
}

function putBack(aside: string, path: string, failed: PruneResult['failed']): void {
  try {
    renameSync(aside, path)
  } catch {
    // A run made a fresh folder at the place meanwhile: it keeps that one; this one goes.
    try {
      rmSync(aside, { recursive: true, force: true })
    } catch (error) {
      failed.push({ path: aside, reason: (error as Error).message })
    }
  }
}

function leftoversOf(root: string): string[] {
  try {
    return readdirSync(root)
      .filter((name) => name.startsWith(PRUNING_PREFIX))
      .map((name) => join(root, name))
  } catch {
    return []
  }
}

/** A run is about to use these caches: moves the label's time forward when it is an hour old. */
export function markCachesUsed(label: string, now = Date.now()): void {
  try {
    const stats = lstatSync(label)
    if (!stats.isFile() || now - stats.mtimeMs < LAST_USE_RESOLUTION_MS) return
    const at = new Date(now)
    utimesSync(label, at, at)
  } catch {
    // No label yet (ensurePrivateCaches writes it) or a read-only SHELLGATE_HOME: nothing to mark.
  }
}
