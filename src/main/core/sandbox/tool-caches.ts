import { createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SandboxSettings } from '../../../shared/settings'
import { isInside, kindOf, realOrNull } from './host-paths'
import type { LayoutEntry } from './layout-types'
import { expandHome } from './sandbox-settings-check'
import { markCachesUsed, privateCachesRoot, WORKSPACE_LABEL } from './tool-cache-prune'

/** The npm, pnpm, yarn, pip, cargo and go caches, under the home folder. */
export const DEFAULT_TOOL_CACHES = [
  '.npm',
  '.local/share/pnpm/store',
  '.pnpm-store',
  '.cache/yarn',
  '.yarn/berry/cache',
  '.cache/pip',
  '.cargo/registry',
  '.cargo/git',
  'go/pkg/mod',
  '.cache/go-build',
]

export interface ToolCaches {
  /** The person's own folders, shared with their builds (only those Settings lists). */
  shared: LayoutEntry[]
  /** The default caches: this workspace's own folders under SHELLGATE_HOME, at the caches' places. */
  private: LayoutEntry[]
  leftOut: LayoutEntry[]
}

/**
 * Where workspace-write commands keep what their tools download. Most of these caches are trusted
 * as they lie, with no check on later use: Go builds from the module cache and reuses compiled
 * packages from its build cache, cargo compiles the sources unpacked in its registry, npx runs
 * what `~/.npm/_npx` holds, pip installs cached wheels. A sandboxed command that could write the
 * person's own caches could plant code that their next build, outside the sandbox, runs. So by
 * default each workspace gets caches of its own (`SHELLGATE_HOME/sandbox-caches/<workspace>/`),
 * bound at the usual places inside the sandbox so the tools need no setting: what one sandboxed
 * run downloads the next one in that workspace reuses, and nothing reaches the person's builds or
 * another workspace's (the reference design: caches isolated per workspace). The cost is a first
 * download per workspace, for each cache the person's home has. Settings → Sandbox → tool caches names folders to share instead, the
 * person's choice, and explain says what that lets a command do.
 *
 * Only where a folder can be mounted at another place (bubblewrap): Seatbelt confines paths but
 * cannot move them, so on macOS the default caches are left read-only, and said.
 */
export function toolCaches(
  settings: SandboxSettings,
  place: { platform: NodeJS.Platform; home: string; dataDir: string; workspace: string },
): ToolCaches {
  const found: ToolCaches = { shared: [], private: [], leftOut: [] }
  if (settings.toolCaches !== undefined) {
    const why =
      'tool cache (Settings → Sandbox → tool caches), shared with your own builds: a command can plant what they later use'
    for (const entry of settings.toolCaches) {
      const path = expandHome(entry, place.home)
      const real = path === null ? null : realOrNull(path)
      if (real === null || kindOf(real) !== 'dir') continue
      if (isInside(place.home, real) || isInside(real, place.dataDir) || isInside(place.dataDir, real)) {
        found.leftOut.push({
          path: real,
          kind: 'dir',
          why: `${why}: it is the home folder or SHELLGATE_HOME, or holds one`,
        })
      } else if (!found.shared.some((shared) => shared.path === real)) {
        found.shared.push({ path: real, kind: 'dir', why })
      }
    }
    return found
  }
  if (place.platform !== 'linux') {
    for (const relative of DEFAULT_TOOL_CACHES) {
      const path = join(place.home, relative)
      if (kindOf(path) === null) continue
      found.leftOut.push({
        path,
        kind: 'dir',
        why: 'tool cache: read-only here, since this sandbox cannot give the workspace its own copy; list it in Settings → Sandbox → tool caches to share it with sandboxed commands',
      })
    }
    return found
  }
  const root = privateCacheRoot(place.dataDir, place.workspace)
  // Only the caches of tools the person uses (the folder exists): the rest of the home stays empty.
  for (const relative of DEFAULT_TOOL_CACHES) {
    if (kindOf(join(place.home, relative)) !== 'dir') continue
    found.private.push({
      path: join(place.home, relative),
      source: join(root, relative.replaceAll('/', '_')),
      kind: 'dir',
      why: `tool cache: this workspace's own (${root}), never the one your builds use`,
    })
  }
  return found
}

/** Makes each private cache folder, owner-only, and says whose it is for a person cleaning up. */
export function ensurePrivateCaches(caches: readonly LayoutEntry[], workspace: string): void {
  for (const cache of caches) {
    if (cache.source !== undefined) mkdirSync(cache.source, { recursive: true, mode: 0o700 })
  }
  const first = caches[0]?.source
  if (first === undefined) return
  const label = join(first, '..', WORKSPACE_LABEL)
  // Written once; its time then says when a run last used these caches (tool-cache-prune.ts).
  if (kindOf(label) === null) writeFileSync(label, `${workspace}\n`, { mode: 0o600 })
  else markCachesUsed(label)
}

function privateCacheRoot(dataDir: string, workspace: string): string {
  const key = createHash('sha256').update(workspace).digest('hex').slice(0, 16)
  return join(privateCachesRoot(dataDir), key)
}
