import {
  CACHE_IDLE_LIMIT_MS,
  listPrivateCaches,
  prunePrivateCaches,
  type WorkspaceCaches,
} from '../../core/sandbox/tool-cache-prune'
import type { CliIo } from '../command'

/** `shellgate sandbox caches [--prune]`: each workspace's own tool caches, and which ones go. */
export async function showCaches(
  io: CliIo,
  dataDir: string,
  options: { prune: boolean; json: boolean },
): Promise<number> {
  const pruned = options.prune ? prunePrivateCaches(dataDir) : null
  // The folders are deleted before the command ends: `--prune` then `du` shows the space back.
  await pruned?.deleted
  const caches = listPrivateCaches(dataDir)
  if (options.json) {
    io.stdout(
      `${JSON.stringify({
        caches: caches.map(shown),
        ...(pruned ? { removed: pruned.removed.map(shown), failed: pruned.failed } : {}),
      })}\n`,
    )
    return pruned && pruned.failed.length > 0 ? 1 : 0
  }
  const days = Math.round(CACHE_IDLE_LIMIT_MS / 86_400_000)
  for (const removed of pruned?.removed ?? [])
    io.stdout(`Removed ${removed.path} (${removed.workspace}: ${removed.state})\n`)
  for (const failure of pruned?.failed ?? [])
    io.stderr(`Could not remove ${failure.path}: ${failure.reason}\n`)
  if (caches.length === 0) io.stdout('No workspace has tool caches of its own.\n')
  for (const found of caches) {
    const used = found.lastUsedMs === null ? 'never' : new Date(found.lastUsedMs).toISOString().slice(0, 10)
    io.stdout(
      `${found.state.padEnd(15)} ${found.workspace ?? '(no label: left alone)'}  last used ${used}  ${found.path}\n`,
    )
  }
  if (!options.prune && caches.some((found) => found.state === 'idle' || found.state === 'workspace gone'))
    io.stdout(
      `Caches of a gone workspace, or unused for ${days} days, are removed when Shellgate starts, or now with --prune.\n`,
    )
  return pruned && pruned.failed.length > 0 ? 1 : 0
}

function shown(found: WorkspaceCaches) {
  return {
    path: found.path,
    workspace: found.workspace,
    lastUsed: found.lastUsedMs === null ? null : new Date(found.lastUsedMs).toISOString(),
    state: found.state,
  }
}
