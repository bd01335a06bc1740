import type { BoundedCollector } from './bounded-collector'
import type { OutputFile } from './file-output'
import type { TerminationProfile } from './kill-tree'
import type { SpawnFunction } from './spawn-function'
import type { SpawnPlan } from './spawn-plan'
import type {
  ExecutionHooks,
  ExecutionTimings,
  LingeringInfo,
  OutputLimitAction,
  SpawnErrorInfo,
  TerminationInfo,
} from './types'

/** What one child run is given (ChildRunSpec) and what it settles to (ChildOutcome). */

export type ChildOutput =
  | { kind: 'pipe'; collector: BoundedCollector; onOutputLimit: OutputLimitAction }
  | { kind: 'file'; file: OutputFile; capBytes: number }

export interface ChildRunSpec {
  plan: SpawnPlan
  cwd: string
  env: Record<string, string>
  /** Where Windows tools (taskkill) are found: the host's SystemRoot, not the child's env. */
  hostEnv?: Record<string, string | undefined>
  runId: string
  platform: NodeJS.Platform
  spawnFile: SpawnFunction
  /** How the child itself is started when not by spawnFile (a pseudo-terminal); kills still use spawnFile. */
  spawnChild?: SpawnFunction
  output: ChildOutput
  /** 0 = no timer. */
  timeoutMs: number
  signal?: AbortSignal
  profile: TerminationProfile
  hooks: ExecutionHooks
  /** Sample resources when a host callback is registered (posix-bash commands). */
  sampleResources: boolean
  resourceSampleIntervalMs?: number
  /** Called by the one finalize step, before the outcome is resolved; tests count it. */
  onFinalize?: () => void
  /** Every kill this run starts, the ones it does not wait for included, so the port can wait for them. */
  trackKill?: (kill: Promise<unknown>) => void
}

export interface ChildOutcome {
  pid: number | null
  spawnError: SpawnErrorInfo | null
  exitCode: number | null
  exitSignal: NodeJS.Signals | null
  timedOut: boolean
  cancelled: boolean
  outputLimitReached: boolean
  timings: ExecutionTimings
  termination: TerminationInfo | null
  lingering: LingeringInfo | null
}
