import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SandboxSettings } from '../../../shared/settings'
import type { HostResolver } from '../network/host-resolver'
import { sandboxBlockedLine } from './blocked-line'
import { DEFAULT_SOCAT_PATH } from './bwrap-network.linux'
import { chooseProfile } from './choose-profile'
import type { BackendStatus } from './backend-status'
import {
  ensureEmptyFile,
  exposedFiles,
  hiddenPaths,
  protectedPaths,
  toolCacheRoots,
  workspaceEnvFiles,
} from './sandbox-paths'
import type { EgressDecision } from './egress-policy'
import { shellgatePortRefusal } from './shellgate-ports'
import { prepareNetwork, type SandboxNetworkInput } from './prepare-network'
import { checkSandboxSettings, type SandboxSettingProblem } from './sandbox-settings-check'
import type { ExecutionSandbox, SandboxProfile } from './types'

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
      /** Closes this run's proxy; call once the process tree is gone. */
      release(): Promise<void>
    }

export interface SandboxService {
  /** The home directory whose secrets are hidden and against which `~/` entries are read. */
  readonly home: string
  /** Detects once and caches; later calls return the same answer. */
  backend(): Promise<BackendStatus>
  status(settings: SandboxSettings): Promise<SandboxStatus>
  prepare(input: SandboxPrepareInput): Promise<PreparedSandbox>
  /** Why a host loopback port can never be allowed (one of Shellgate's own), or null. */
  portRefusal(port: number): Promise<string | null>
}

export function createSandboxService(options: SandboxServiceOptions): SandboxService {
  let detected: Promise<BackendStatus> | null = null
  const backend = () => {
    detected ??= options.detect()
    return detected
  }
  const logDir = join(options.dataDir, 'sandbox')
  const socatPath = options.socatPath ?? DEFAULT_SOCAT_PATH
  const portRefusal = (port: number) =>
    shellgatePortRefusal(port, options.platform, options.ownPorts?.() ?? [])
  const logDecision = (decision: EgressDecision) => {
    mkdirSync(logDir, { recursive: true, mode: 0o700 })
    appendFileSync(join(logDir, 'proxy.log'), `${JSON.stringify(decision)}\n`, { mode: 0o600 })
    options.onProxyDecision?.(decision)
  }

  return {
    home: options.home,
    backend,
    portRefusal,
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
        return { kind: 'run', profile: 'off', notes, explain: () => null, release: async () => {} }
      }
      const workspace = realpathSync(input.workspace)
      const sandbox: ExecutionSandbox = {
        profile: choice.profile,
        workspace,
        writableRoots:
          choice.profile === 'workspace-write' ? toolCacheRoots(options.home, input.settings) : [],
        protectedPaths: choice.profile === 'workspace-write' ? protectedPaths(workspace) : [],
        hidden: [
          ...hiddenPaths(options.home, options.dataDir, input.settings),
          ...(choice.profile === 'read-only' ? workspaceEnvFiles(workspace) : []),
        ],
        emptyFile: ensureEmptyFile(logDir),
        exposed: exposedFiles(input.readableFiles, input.writableFiles),
        network: 'off',
        ...(options.bwrapPath ? { bwrapPath: options.bwrapPath } : {}),
      }
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
        portRefusal,
        log: logDecision,
      })
      sandbox.network = network.network
      if (network.egress) sandbox.egress = network.egress
      notes.push(...network.notes)
      cleanups.push(network.release)
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
        release: async () => {
          if (released) return
          released = true
          for (const cleanup of cleanups) await cleanup()
        },
      }
    },
  }
}

function summary(settings: SandboxSettings, status: BackendStatus): string {
  if (settings.mode === 'off') return 'the sandbox is off: commands run with all of your power'
  if (!status.available) {
    return settings.mode === 'strict'
      ? `strict: no sandbox can run here, so no command runs (${status.message})`
      : `commands run WITHOUT a sandbox: ${status.message}`
  }
  return `${settings.mode}: read-only for commands run without asking, workspace-write (network ${settings.network}) for approved ones`
}
