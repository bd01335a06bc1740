import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { SandboxSettings } from '../../../shared/settings'
import { HOME_SECRETS } from '../secrets/home-secrets'
import { SCAN_FOLDER_CAP, scanFolder } from './folder-scan'
import { prefixSecrets } from './prefix-secrets'
import { type GitBaseline, gitBaseline } from './git-audit'
import { sealConfiguredPrograms } from './git-config-programs'
import { gitDirsOf, gitDirsOutside, sealGitDirs } from './git-seal'
import { homeConfigFiles } from './home-config-files'
import { isInside, kindOf, realOrNull } from './host-paths'
import { listeningSocketPaths } from './host-sockets'
import type { LayoutEntry } from './layout-types'
import { allowedSockets, personFolders } from './person-paths'
import { protectedShellgatePaths } from './sandbox-paths'
import { expandHome } from './sandbox-settings-check'
import { systemLayout } from './system-folders'
import { ensurePrivateCaches, toolCaches } from './tool-caches'
import { toolchainRoots } from './toolchain-roots'
import type { EnforcedProfile, SymlinkPath } from './types'

/** System prefixes tools install into, each with an etc/ of its own (and /opt/<tool>/etc). */
const PREFIX_ROOTS = ['/usr/local', '/opt']
export interface LayoutInput {
  platform: NodeJS.Platform
  profile: EnforcedProfile
  home: string
  /** SHELLGATE_HOME: never mounted (the executor's own files in it are exposed one by one). */
  dataDir: string
  /** Real path. */
  workspace: string
  /** Where the command starts; readable too when it is outside the workspace. */
  cwd: string
  /** The PATH the command gets: where its toolchains are found. */
  searchPath: string
  settings: SandboxSettings
  /** Settings → Read places: folders read-only commands may read without asking, so mounted too. */
  readableFolders: readonly string[]
  /**
   * Create the sealed git paths that are missing (prepare); false only describes (explain), so
   * explaining a profile changes nothing on disk.
   */
  create: boolean
  /** Tests: the host's listening socket paths (default: /proc/net/unix). */
  listeningSockets?: string[]
}

/** The whole plan, every entry with its reason (for `shellgate sandbox explain`). */
export interface SandboxLayout {
  profile: EnforcedProfile
  readable: LayoutEntry[]
  symlinks: SymlinkPath[]
  emptyDirs: LayoutEntry[]
  workspace: LayoutEntry
  writable: LayoutEntry[]
  protected: LayoutEntry[]
  reopened: LayoutEntry[]
  /** Writable during the run, put back after it unless only core.worktree changed (a submodule's config). */
  restoredAfter: LayoutEntry[]
  /** Writable at `path`, the contents kept at `source`: the workspace's own tool caches (tool-caches.ts). */
  privateCaches: LayoutEntry[]
  /** Program paths a git config names that do not exist yet: moved aside if the run makes them. */
  watchedAfter: LayoutEntry[]
  hidden: LayoutEntry[]
  allowedSockets: LayoutEntry[]
  /** Considered and not mounted: a config file holding a credential, a PATH entry that is the home folder. */
  leftOut: LayoutEntry[]
  /** workspace-write: the `.git` entries and sealed git dirs before the run, for the audit after it. */
  git: GitBaseline | null
}

/**
 * Reads are denied by default (issue 19.1): the layout is built up from nothing. The system
 * folders without their secrets; an empty home folder with a few config files; the toolchains
 * on PATH; the folders the person added; the workspace; and, hidden inside all of them, the one
 * list of secrets (the secrets room's home paths and file names, SHELLGATE_HOME, host sockets).
 *
 * Secret files inside the workspace are hidden at any depth from the read-only profile (commands
 * nobody approved). Approved commands (workspace-write) see the workspace's own: the person who
 * allows `npm test` expects it to load `.env`. In the folders the person added, and in a working
 * folder outside the workspace, they are hidden in both profiles.
 */
export function planLayout(input: LayoutInput): SandboxLayout {
  const { home, workspace, profile } = input
  const writes = profile === 'workspace-write'
  const system = systemLayout(input.platform)
  const readable: LayoutEntry[] = [...system.readable]
  const leftOut: LayoutEntry[] = []
  const hidden: LayoutEntry[] = [...system.hidden]
  const writable: LayoutEntry[] = []
  const protectedPaths: LayoutEntry[] = []
  const reopened: LayoutEntry[] = []
  const restoredAfter: LayoutEntry[] = []
  const watchedAfter: LayoutEntry[] = []
  const privateCaches: LayoutEntry[] = []
  const emptyDirs: LayoutEntry[] =
    input.platform === 'darwin'
      ? []
      : [{ path: home, kind: 'dir', why: 'the home folder, empty: reads are denied by default' }]
  // The system's top-level links (/bin -> usr/bin) are made inside too, so what is under them is there.
  const mounted = () =>
    [...readable, ...writable, { path: workspace }, ...system.symlinks].map((entry) => entry.path)
  const covered = (path: string) => mounted().some((root) => isInside(path, root))

  const config = homeConfigFiles(home)
  readable.push(...config.readable)
  leftOut.push(...config.leftOut)
  const toolchains = toolchainRoots(input.searchPath, { home, dataDir: input.dataDir, covered })
  readable.push(...toolchains.readable)
  leftOut.push(...toolchains.skipped)
  // Installed trees hold the person's settings too: npm's global npmrc is <prefix>/etc/npmrc.
  const prefixes = prefixSecrets(
    toolchains.readable.map((entry) => entry.source ?? entry.path),
    PREFIX_ROOTS.filter((root) => covered(root)),
  )
  hidden.push(...prefixes.hidden)
  leftOut.push(...prefixes.unchecked)

  // The person's folders: scanned like the workspace, their secrets hidden in both profiles.
  const scanned: { root: string; writable: boolean; hideSecrets: boolean }[] = []
  for (const folder of personFolders(input)) {
    if (folder.refusal) {
      leftOut.push({ path: folder.path, kind: 'dir', why: folder.refusal })
      continue
    }
    // Scanned even where a system folder already covers it: the person's files hold the person's secrets.
    if (!covered(folder.path)) readable.push({ path: folder.path, kind: 'dir', why: folder.why })
    if (!isInside(folder.path, workspace))
      scanned.push({ root: folder.path, writable: false, hideSecrets: true })
  }
  const realCwd = realOrNull(input.cwd)
  if (
    !covered(input.cwd) &&
    !isInside(home, input.cwd) &&
    realCwd !== null &&
    !isInside(home, realCwd) &&
    kindOf(realCwd) === 'dir'
  ) {
    readable.push({
      path: input.cwd,
      ...(realCwd !== input.cwd ? { source: realCwd } : {}),
      kind: 'dir',
      why: "the command's working folder, outside the workspace",
    })
    scanned.push({ root: input.cwd, writable: false, hideSecrets: true })
  }

  const workspaceEntry: LayoutEntry = {
    path: workspace,
    kind: 'dir',
    why: writes
      ? 'the workspace (workspace-write: approved commands)'
      : 'the workspace, read-only (commands run without asking)',
  }
  scanned.unshift({ root: workspace, writable: writes, hideSecrets: !writes })
  // A linked worktree's or submodule's git dir lives outside the workspace; git needs it.
  const refusedGitDirs: string[] = []
  for (const gitDir of gitDirsOutside(workspace, refusedGitDirs)) {
    const entry: LayoutEntry = { path: gitDir, kind: 'dir', why: "the workspace's git dir, outside it" }
    if (writes) writable.push(entry)
    else readable.push(entry)
  }
  for (const gitDir of refusedGitDirs) {
    leftOut.push({
      path: gitDir,
      kind: 'dir',
      why: "the workspace's .git file points here, but it is no linked worktree's or submodule's git dir of this workspace (it does not lead back): not mounted",
    })
  }
  if (writes) {
    const caches = toolCaches(input.settings, {
      platform: input.platform,
      home,
      dataDir: input.dataDir,
      workspace,
    })
    writable.push(...caches.shared)
    leftOut.push(...caches.leftOut)
    for (const cache of caches.private) {
      // A place inside a folder mounted read-only (a readable ~/.cargo) cannot be made a mount
      // point when the host has nothing there: bwrap would fail the run.
      if (kindOf(cache.path) === null && readable.some((entry) => isInside(cache.path, entry.path))) {
        leftOut.push({ ...cache, why: `${cache.why}: not mounted, since it would sit in a read-only folder` })
      } else privateCaches.push(cache)
    }
    if (input.create) ensurePrivateCaches(privateCaches, workspace)
    for (const path of protectedShellgatePaths(workspace)) {
      protectedPaths.push({ path, kind: 'dir', why: "Shellgate's own workspace rules" })
    }
  }

  const allowed = writes
    ? allowedSockets(input.settings.allowedSockets, input.home, input.dataDir)
    : { entries: [], leftOut: [] }
  leftOut.push(...allowed.leftOut)
  const gitEntries: string[] = []
  for (const target of scanned) {
    const scan = scanFolder(target.root)
    if (target.hideSecrets) {
      for (const path of scan.secretFiles)
        hidden.push({ path, kind: 'file', why: secretWhy(target.root, workspace) })
    }
    for (const path of scan.sockets) hidden.push({ path, kind: 'file', why: 'a host Unix socket' })
    for (const path of scan.unread) {
      const why = `not checked for secrets: unreadable, or past the scan's cap of ${SCAN_FOLDER_CAP} folders (fails closed)`
      if (target.writable) protectedPaths.push({ path, kind: 'dir', why })
      else hidden.push({ path, kind: 'dir', why })
    }
    if (target.root === workspace)
      gitEntries.push(...scan.gitEntries.map((entry) => entry.path), ...scan.bareRepositories)
  }
  let git: GitBaseline | null = null
  if (writes) {
    const writableRoots = [workspace, ...writable.map((entry) => entry.path)]
    const gitDirs = gitEntries
      .flatMap(gitDirsOf)
      .filter((dir) => writableRoots.some((root) => isInside(dir, root)))
    const seal = sealGitDirs(gitDirs, input.create)
    protectedPaths.push(...seal.protected)
    const programs = sealConfiguredPrograms(seal.gitDirs, workspace, home, input.create)
    protectedPaths.push(...programs.protected)
    reopened.push(...programs.pinned)
    reopened.push(...seal.reopened)
    restoredAfter.push(...seal.restoredAfter)
    watchedAfter.push(...programs.missing)
    git = gitBaseline(
      gitEntries,
      seal.gitDirs,
      seal.restoredAfter.map((entry) => entry.path),
      programs.missing,
      programs.protected,
      workspace,
    )
  }

  hidden.push(...alwaysHidden(input, mounted()))
  for (const path of input.listeningSockets ?? listeningSocketPaths()) {
    if (covered(path) && kindOf(path) === 'socket')
      hidden.push({ path, kind: 'file', why: 'a host Unix socket (listening)' })
  }
  return {
    profile,
    readable,
    symlinks: system.symlinks,
    emptyDirs,
    workspace: workspaceEntry,
    writable,
    protected: protectedPaths,
    reopened,
    restoredAfter,
    watchedAfter,
    privateCaches,
    hidden: unique(hidden),
    allowedSockets: allowed.entries,
    leftOut,
    git,
  }
}

/**
 * The one list of secrets, wherever a mounted root reaches them: the home secrets (inside a root,
 * or holding one: `~/.config/gh` over a readable `~/.config/gh/x`), SHELLGATE_HOME, and what the
 * person listed in Settings → Sandbox → also hide.
 */
function alwaysHidden(input: LayoutInput, roots: string[]): LayoutEntry[] {
  const overlaps = (path: string) => roots.some((root) => isInside(path, root) || isInside(root, path))
  const candidates = [
    ...HOME_SECRETS.map((secret) => ({
      path: join(input.home, secret.path),
      why: `home secret: ${secret.why}`,
    })),
    { path: input.dataDir, why: "SHELLGATE_HOME: Shellgate's settings, rules, audit log and keys" },
    ...input.settings.hiddenPaths.flatMap((entry) => {
      const path = expandHome(entry, input.home)
      return path ? [{ path, why: 'Settings → Sandbox → also hide' }] : []
    }),
  ]
  const hidden: LayoutEntry[] = []
  const mayExist = homeEntryFilter(input.home)
  for (const candidate of candidates) {
    if (!mayExist(candidate.path)) continue
    // Hidden where it is named, and where it really is when it is a link (a symlinked ~/.ssh);
    // only a link needs resolving, so most of the list costs one lstat.
    const named = kindOf(candidate.path)
    const paths = named === 'link' ? [candidate.path, realOrNull(candidate.path)] : [candidate.path]
    for (const path of paths) {
      if (path === null || !overlaps(path)) continue
      const kind = path === candidate.path && named !== 'link' ? named : kindOf(path)
      if (kind === 'dir' || kind === 'file' || kind === 'socket') {
        hidden.push({ path, kind: kind === 'dir' ? 'dir' : 'file', why: candidate.why })
      }
    }
  }
  return hidden
}

/**
 * Whether a path may exist, from one listing of the home folder: a home secret whose first name
 * is not in it cannot exist, so most of the list (other platforms' folders, tools not installed)
 * costs no lstat. Names are compared case-folded, since a home may be on a case-insensitive file
 * system (macOS, a casefolded folder): a wrong "may exist" costs one lstat, a wrong "cannot" would
 * leave a secret readable. Paths outside the home folder, or a home that cannot be listed, always may.
 */
function homeEntryFilter(home: string): (path: string) => boolean {
  let names: Set<string>
  try {
    names = new Set(readdirSync(home).map((name) => name.toLowerCase()))
  } catch {
    return () => true
  }
  return (path) => {
    if (!isInside(path, home) || path === home) return true
    const first = path
      .slice(home.length)
      .split('/')
      .find((part) => part !== '')
    return first === undefined || names.has(first.toLowerCase())
  }
}

function secretWhy(root: string, workspace: string): string {
  return root === workspace
    ? 'a secret file name in the workspace (read-only profile: nobody approved this command)'
    : 'a secret file name in a folder the person added'
}

function unique(entries: LayoutEntry[]): LayoutEntry[] {
  const seen = new Set<string>()
  return entries.filter((entry) => !seen.has(entry.path) && seen.add(entry.path))
}
