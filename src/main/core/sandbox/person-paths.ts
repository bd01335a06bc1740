import type { LayoutEntry } from './layout-types'
import { isInside, kindOf, realOrNull } from './host-paths'
import type { SandboxSettings } from '../../../shared/settings'
import { expandHome } from './sandbox-settings-check'

/**
 * The paths the person names in settings, checked before they are mounted: readable folders
 * (never the home folder or one that holds it, never SHELLGATE_HOME) and allowed sockets (a
 * socket now, and never one of Shellgate's own).
 */
export function personFolders(input: {
  settings: SandboxSettings
  readableFolders: readonly string[]
  home: string
  dataDir: string
}): { path: string; why: string; refusal: string | null }[] {
  const entries = [
    ...input.settings.readablePaths.map((entry) => ({ entry, why: 'Settings → Sandbox → readable folders' })),
    ...input.readableFolders.map((entry) => ({ entry, why: 'Settings → Read places → readable folders' })),
  ]
  return entries.flatMap(({ entry, why }) => {
    const expanded = expandHome(entry, input.home)
    const path = expanded === null ? null : realOrNull(expanded)
    if (path === null || kindOf(path) !== 'dir') return []
    let refusal: string | null = null
    if (isInside(input.home, path))
      refusal = `${why}: it holds the home folder, which stays empty; add a folder inside it`
    else if (isInside(path, input.dataDir) || isInside(input.dataDir, path))
      refusal = `${why}: SHELLGATE_HOME is never mounted`
    return [{ path, why, refusal }]
  })
}

/**
 * The sockets of Settings → Sandbox → allowed sockets that are sockets now and not Shellgate's
 * own (the hub's socket lives in SHELLGATE_HOME/run): bound at the path written and where it
 * really is, for approved commands only.
 */
export function allowedSockets(
  settingsEntries: readonly string[],
  home: string,
  dataDir: string,
): { entries: LayoutEntry[]; leftOut: LayoutEntry[] } {
  const entries: LayoutEntry[] = []
  const leftOut: LayoutEntry[] = []
  for (const entry of settingsEntries) {
    const path = expandHome(entry, home)
    if (path === null) continue
    const real = realOrNull(path)
    if (real === null || kindOf(real) !== 'socket') {
      leftOut.push({
        path,
        kind: 'file',
        why: 'Settings → Sandbox → allowed sockets: not a Unix socket (yet)',
      })
      continue
    }
    if (isInside(real, dataDir) || isInside(path, dataDir)) {
      leftOut.push({ path, kind: 'file', why: "Shellgate's own sockets can never be allowed" })
      continue
    }
    const why = "Settings → Sandbox → allowed sockets (whoever reaches it acts with its owner's power)"
    for (const at of new Set([path, real])) entries.push({ path: at, kind: 'file', why })
  }
  return { entries, leftOut }
}
