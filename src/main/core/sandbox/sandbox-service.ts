import { appendFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SandboxSettings } from '../../../shared/settings'
import type { HostResolver } from '../network/host-resolver'
import type { NetworkConfigInput } from '../network/network-config'
import { sandboxBlockedLine } from './blocked-line'
import { DEFAULT_SOCAT_PATH } from './bwrap-network.linux'
import { DEFAULT_BWRAP_PATH, DEFAULT_NSENTER_PATH } from './bwrap.linux'
import { createSparePool, type SparePool } from './spare-network.linux'
import { chooseProfile } from './choose-profile'
import type { BackendStatus } from './backend-status'
import { SCAN_FOLDER_CAP, scanFolder } from './folder-scan'
import { quarantinePlantedRepositories } from './git-audit'
import { allowedSockets } from './person-paths'
import { type LayoutInput, planLayout, type SandboxLayout } from './sandbox-layout'
import { sandboxOf } from './layout-sandbox'
import { type PruneResult, prunePrivateCaches } from './tool-cache-prune'
import { MountSourceChangedError, pinMountSources } from './pinned-sources.linux'
import { checkSeal, snapshotSeal } from './seal-check'
import { ensureHiddenFiles, exposedFiles } from './sandbox-paths'
import type { EgressDecision } from './egress-policy'
import { prepareNetwork, type SandboxNetworkInput } from './prepare-network'
import { shellgatePortRefusal } from './shellgate-ports'
import { checkSandboxSettings, type SandboxSettingProblem } from './sandbox-settings-check'
import type { EnforcedProfile, ExecutionSandbox, HiddenPath, SandboxProfile } from './types'

export interface SandboxServiceOptions {
  platform: NodeJS.Platform
  home: string
  /** SHELLGATE_HOME: hidden from every sandboxed command; the proxy log lives in <dataDir>/sandbox. */
  dataDir: string
  bwrapPath?: string
  /**
   * Runs `true` in each profile (detectBackend with a ProbeRunner): the room plans and never
   * spawns, so the caller that owns an executor supplies it (workbench/sandbox-probe.ts).
   */
  detect: () => Promise<BackendStatus>
  resolver?: HostResolver
  /** Tests only: loopback ports the proxy may reach (see EgressPolicyOptions). */
  admitLoopbackPorts?: number[]
  /** Linux, a command with a network: the bridge inside the sandbox (default /usr/bin/socat). */
  socatPath?: string
  /** Ports Shellgate serves that /proc cannot show (another process's, or on macOS); never forwarded. */
  ownPorts?: () => number[]
  /** Every proxy decision, after it is written to the log. */
  onProxyDecision?: (decision: EgressDecision) => void
  /**
   * The person's network settings and environment, read for each command with a network: the
   * sandbox proxy goes out through their own proxy (a corporate one) when one is set.
   */
  parentProxy?: () => Promise<NetworkConfigInput>
  /**
   * A long-lived core (the hub): keep one network namespace ready ahead of the next networked
   * command (spare-network.linux.ts). Used on Linux as root only; a one-shot CLI leaves it off.
   */
  spareNetworks?: boolean
}

export interface SandboxStatus {
  mode: SandboxSettings['mode']
  network: SandboxSettings['network']
  backend: BackendStatus
  problems: SandboxSettingProblem[]
  /** What commands get, in one sentence (shown at the top of Settings → Sandbox). */
  summary: string
}

export interface SandboxPrepareInput {
  settings: SandboxSettings
  workspace: string
  /** Where the command starts (readable too when it is outside the workspace). */
  cwd: string
  /** The PATH the command gets: where its toolchains are found and mounted from. */
  searchPath: string
  /** Settings → Read places → readable folders: what read-only commands may read, so mounted too. */
  readableFolders: readonly string[]
  ranWithoutAsking: boolean
  unsandboxedByPerson: boolean
  /** Executor files under SHELLGATE_HOME the command reads (the shell snapshot). */
  readableFiles: (string | null)[]
  /** …and writes (the cwd capture file). */
  writableFiles: (string | null)[]
  /** The hub's rules, ports and asker, fetched only for a command with a network; absent: the files' rules, nobody asked. */
  network?: () => Promise<SandboxNetworkInput>
}

export type PreparedSandbox =
  | { kind: 'refuse'; reason: string }
  | {
      kind: 'run'
      profile: SandboxProfile
      /** Put on the execution request; absent when the profile is off. */
      sandbox?: ExecutionSandbox
      /** Warnings and settings problems, shown with the command's result. */
      notes: string[]
      /** The plain "blocked by the sandbox" line for a failed run, or null. */
      explain(result: { exitCode: number | null; output: string }): string | null
      /**
       * Once the process tree is gone: the audit of what the run did to git (a planted
       * repository is moved aside), once; one line per thing done, for the command's result.
       */
      settle(): string[]
      /** Settles (if not yet), then closes this run's proxy; call once the process tree is gone. */
      release(): Promise<void>
    }

export interface ExplainInput {
  settings: SandboxSettings
  profile: EnforcedProfile
  workspace: string
  cwd: string
  searchPath: string
  readableFolders: readonly string[]
}

export interface SandboxService {
  /** The home directory whose secrets are hidden and against which `~/` entries are read. */
  readonly home: string
  /** Detects once and caches; later calls return the same answer. */
  backend(): Promise<BackendStatus>
  status(settings: SandboxSettings): Promise<SandboxStatus>
  prepare(input: SandboxPrepareInput): Promise<PreparedSandbox>
  /** What a profile would mount, and why, without changing anything (`shellgate sandbox explain`). */
  explain(input: ExplainInput): SandboxLayout
  /** The host sockets approved commands can reach under these settings (for the approval card's warning). */
  allowedSockets(settings: SandboxSettings): string[]
  /** Why a host loopback port can never be allowed (one of Shellgate's own), or null. */
  portRefusal(port: number): Promise<string | null>
  /** Resolves once no spare network is being made (benches and tests wait here). */
  sparesIdle(): Promise<void>
  /** Ends the spare network waiting for a next command, if any. */
  dispose(): void
  /** Removes the private tool caches of gone and idle workspaces (tool-cache-prune.ts). */
  pruneCaches(): PruneResult
}

export function createSandboxService(options: SandboxServiceOptions): SandboxService {
  let detected: Promise<BackendStatus> | null = null
  const backend = () => {
    detected ??= options.detect()
    return detected
  }
  const logDir = join(options.dataDir, 'sandbox')
  const socatPath = options.socatPath ?? DEFAULT_SOCAT_PATH
  const spares = spareNetworksFor(options, logDir, socatPath)
  const portRefusal = (port: number) =>
    shellgatePortRefusal(port, options.platform, options.ownPorts?.() ?? [])
  const logDecision = (decision: EgressDecision) => {
    mkdirSync(logDir, { recursive: true, mode: 0o700 })
    appendFileSync(join(logDir, 'proxy.log'), `${JSON.stringify(decision)}\n`, { mode: 0o600 })
    options.onProxyDecision?.(decision)
  }

  const layoutInput = (
    input: Omit<ExplainInput, 'profile'> & { profile: EnforcedProfile },
    create: boolean,
  ): LayoutInput => ({
    platform: options.platform,
    profile: input.profile,
    home: options.home,
    dataDir: options.dataDir,
    workspace: input.workspace,
    cwd: input.cwd,
    searchPath: input.searchPath,
    settings: input.settings,
    readableFolders: input.readableFolders,
    create,
  })

  return {
    home: options.home,
    backend,
    portRefusal,
    sparesIdle: async () => spares?.idle(),
    dispose: () => spares?.dispose(),
    pruneCaches: () => prunePrivateCaches(options.dataDir),
    allowedSockets: (settings) => [
      ...new Set(
        allowedSockets(settings.allowedSockets ?? [], options.home, options.dataDir).entries.map(
          (entry) => entry.path,
        ),
      ),
    ],
    explain: (input) =>
      planLayout(layoutInput({ ...input, workspace: realpathSync(input.workspace) }, false)),
    async status(settings) {
      const status = await backend()
      const problems = checkSandboxSettings(settings, options.home)
      return {
        mode: settings.mode,
        network: settings.network,
        backend: status,
        problems,
        summary: summary(settings, status),
      }
    },
    async prepare(input) {
      const status = await backend()
      const choice = chooseProfile({
        mode: input.settings.mode,
        ranWithoutAsking: input.ranWithoutAsking,
        unsandboxedByPerson: input.unsandboxedByPerson,
        backendAvailable: status.available,
        backendMessage: status.message,
      })
      if (choice.kind === 'refuse') return { kind: 'refuse', reason: choice.reason }
      const notes = checkSandboxSettings(input.settings, options.home).map((problem) => problem.message)
      if (choice.warning) notes.push(choice.warning)
      if (choice.profile === 'off') {
        const off = { kind: 'run', profile: 'off', notes, explain: () => null, settle: () => [] } as const
        return { ...off, release: async () => {} }
      }
      const workspace = realpathSync(input.workspace)
      const layout = planLayout(layoutInput({ ...input, profile: choice.profile, workspace }, true))
      const sandbox = sandboxOf(layout, {
        ...hiddenFiles(logDir),
        exposed: exposedFiles(input.readableFiles, input.writableFiles),
        network: 'off',
        ...(options.bwrapPath ? { bwrapPath: options.bwrapPath } : {}),
      })
      const cleanups: (() => Promise<void> | void)[] = []
      if (options.platform === 'darwin') {
        const privateTmp = realpathSync(mkdtempSync(join(tmpdir(), 'shellgate-tmp-')))
        sandbox.privateTmp = privateTmp
        cleanups.push(() => rmSync(privateTmp, { recursive: true, force: true }))
      }
      const network = await prepareNetwork({
        platform: options.platform,
        profile: choice.profile,
        settings: input.settings,
        workspace,
        dataDir: options.dataDir,
        logDir,
        socatPath,
        resolver: options.resolver,
        admitLoopbackPorts: options.admitLoopbackPorts,
        network: input.network,
        parentProxy: options.parentProxy,
        portRefusal,
        ...(spares ? { spares } : {}),
        log: logDecision,
      })
      sandbox.network = network.network
      if (network.egress) sandbox.egress = network.egress
      sandbox.hidden = stillPresent(sandbox.hidden)
      notes.push(...network.notes)
      cleanups.push(network.release)
      if (options.platform === 'linux') {
        try {
          const pinned = pinMountSources(sandbox)
          sandbox.pinnedSources = pinned.sources
          cleanups.push(pinned.close)
        } catch (error) {
          for (const cleanup of cleanups) await cleanup()
          if (error instanceof MountSourceChangedError) return { kind: 'refuse', reason: error.message }
          throw error
        }
      }
      let settled: string[] | null = null
      // The seal as it is now, once every mount source is pinned: checked again after the run.
      const seal = choice.profile === 'workspace-write' ? snapshotSeal(layout.protected) : null
      const settle = () => {
        if (settled === null) {
          const scan = layout.git ? scanFolder(workspace) : null
          try {
            const sealNotes = seal ? checkSeal(seal, workspace) : []
            settled = [
              ...sealNotes,
              ...(layout.git && scan
                ? quarantinePlantedRepositories(workspace, options.home, layout.git, [
                    ...scan.gitEntries.map((entry) => entry.path),
                    ...scan.bareRepositories,
                  ])
                : []),
            ]
          } catch (error) {
            // The audit failing is said, never silent, and never stops the release of the run.
            settled = [
              `WARNING: Shellgate's check of the workspace's git setup after the run failed (${(error as Error).message}), so something a sandboxed command planted may still be there. Do not run git here until you have looked.`,
            ]
          }
          // Past the scan's cap, a repository the command planted may sit where nothing looked
          // (the submodules the indexes record were still checked): said, never passed over.
          if (scan && scan.unread.length > 0)
            settled.push(
              `WARNING: the workspace is too large for Shellgate to check all of it after the run (${scan.unread.length} folders past the cap of ${SCAN_FOLDER_CAP} were not read), so a repository a sandboxed command planted there would not be seen. Do not run git in those folders until you have looked: ${scan.unread.slice(0, 3).join(', ')}${scan.unread.length > 3 ? ', …' : ''}`,
            )
        }
        return settled
      }
      let released = false
      return {
        kind: 'run',
        profile: choice.profile,
        sandbox,
        notes,
        explain: (result) =>
          sandboxBlockedLine({
            sandbox,
            output: result.output,
            exitCode: result.exitCode,
            refused: network.refused,
            home: options.home,
          }),
        settle,
        release: async () => {
          if (released) return
          released = true
          settle()
          for (const cleanup of cleanups) await cleanup()
        },
      }
    },
  }
}

/**
 * Joining a namespace made ahead needs CAP_SYS_ADMIN over its owner: root, here. Unprivileged, each
 * bwrap namespace sits in a user namespace of its own that nsenter cannot enter, so commands bridge
 * themselves (the pool is never made).
 */
function spareNetworksFor(
  options: SandboxServiceOptions,
  logDir: string,
  socatPath: string,
): SparePool | null {
  if (!options.spareNetworks || options.platform !== 'linux' || process.getuid?.() !== 0) return null
  if (!existsSync(DEFAULT_NSENTER_PATH) || !existsSync(socatPath)) return null
  return createSparePool({
    baseDir: logDir,
    bwrapPath: options.bwrapPath ?? DEFAULT_BWRAP_PATH,
    socatPath,
    nsenterPath: DEFAULT_NSENTER_PATH,
  })
}

/**
 * What vanished since the layout was planned (a test's socket, a tool's temporary one) has nothing
 * left to hide, and bwrap cannot make a mount point for it inside a read-only folder: it would
 * fail the command ("Can't mkdir parents"). Checked last, just before the command is spawned. A
 * path made again after this check is no more exposed than any path made after planning.
 */
function stillPresent(hidden: HiddenPath[]): HiddenPath[] {
  return hidden.filter((entry) => lstatSync(entry.path, { throwIfNoEntry: false }) !== undefined)
}

function hiddenFiles(dir: string): Pick<ExecutionSandbox, 'emptyFile' | 'blankFile'> {
  const files = ensureHiddenFiles(dir)
  return { emptyFile: files.unreadable, blankFile: files.blank }
}

function summary(settings: SandboxSettings, status: BackendStatus): string {
  if (settings.mode === 'off') return 'the sandbox is off: commands run with all of your power'
  if (!status.available) {
    return settings.mode === 'strict'
      ? `strict: no sandbox can run here, so no command runs (${status.message})`
      : `commands run WITHOUT a sandbox: ${status.message}`
  }
  return `${settings.mode}: read-only (no network) for commands run without asking, workspace-write (network ${settings.network}, only through Shellgate's proxy) for approved ones`
}
