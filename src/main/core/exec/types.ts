/**
 * The execution port's public types (seed 000 + seed 004). Every process Shellgate starts goes
 * through `runProcess` or an `ExecutionPort`; other rooms import these types, never child_process.
 */

import type { ExecutionSandbox } from '../sandbox/types'
import type { TerminalHandle, TerminalOptions } from './terminal-types'

/** What to run: argv (no shell, ever) or a command line for one shell invoked with `-c`. */
export type ExecutionCommand =
  | { mode: 'argv'; file: string; args: string[] }
  | {
      mode: 'shell'
      command: string
      /** Absolute path or name of the shell; defaults to /bin/bash for posix-bash, /bin/sh otherwise (cmd.exe via ComSpec on win32). */
      shell?: string
      /** The Bash tool's profile: tree termination with a 1.5 s grace and resource sampling. */
      shellProfile?: 'posix-bash'
    }

export type ExecutionStatus = 'completed' | 'failed' | 'timed_out' | 'cancelled' | 'spawn_error'

/** What to do when the shared output budget is spent. */
export type OutputLimitAction = 'truncate' | 'terminate'

/** Pipe mode: stdout and stderr through pipes into one bounded collector. */
export interface PipeOutputOptions {
  mode: 'pipe'
  /** Bytes kept in memory across both streams; default 10 MiB. 0 keeps nothing. */
  inlineLimitBytes?: number
  /** When set, each stream is also written to `<persistDir>/<runId>-stdout.log` / `-stderr.log` (0600), up to `persistLimitBytes` in total. */
  persistDir?: string
  /** Default 50 MiB. */
  persistLimitBytes?: number
  /** Default 'truncate': keep running, drop the excess, flag it. */
  onOutputLimit?: OutputLimitAction
}

/** Bash file mode: stdout and stderr of the child point at one file (0600, O_NOFOLLOW); no Node pipes. */
export interface FileOutputOptions {
  mode: 'file'
  /** Created or truncated; a symlink at this path is refused, never followed. */
  outputPath: string
  /** Default 5 GB; the size is checked every second and the tree is killed when it is exceeded. */
  capBytes?: number
}

export interface ExecutionRequest {
  command: ExecutionCommand
  /** Must exist and be a directory. */
  cwd: string
  /** The child's whole environment (plus SHELLGATE_RUN_ID); process.env is never read. */
  env: Record<string, string>
  /** Wall-clock budget from spawn; default 300000; 0 = no timer. */
  timeoutMs?: number
  /**
   * Cancels the run: the process tree is terminated and the result is `cancelled`.
   *
   * Background tasks: start a Bash command with `timeoutMs: 0` and file output, keep your own
   * AbortController here, and stop awaiting `execute()` whenever you like (for example race it
   * against a "moved to background" promise). The process keeps running and writing to the file,
   * the size guard keeps watching it, and aborting this signal later still kills the whole tree and
   * settles the promise. Nothing in the port ties the child's lifetime to the caller awaiting.
   */
  signal?: AbortSignal
  /** Default: pipe mode with the defaults above. */
  output?: PipeOutputOptions | FileOutputOptions
  /**
   * Run inside the OS sandbox (seed 000's ExecutionSandboxPolicy): the spawn plan is wrapped by the
   * sandbox room. Absent means unsandboxed. Who picks the profile (the Bash path) is not our concern.
   */
  sandbox?: ExecutionSandbox
  /** Run on a pseudo-terminal of this size (file output only; POSIX only): see pty-spawn.ts. */
  terminal?: TerminalOptions
}

export interface ProgressSample {
  elapsedMs: number
  totalBytes: number
  /** ms since spawn of the last output seen; null before any output. */
  lastOutputAt: number | null
  /** Last 5 and last 100 lines of the last 4 KiB of output. */
  preview5: string
  preview100: string
}

export interface ResourceSample {
  /** The run's root: its process group on POSIX, the root of its process tree on Windows. */
  pid: number
  rssBytes: number
  /** Cumulative user + system CPU time of the group. */
  cpuMs: number
  elapsedMs: number
  /**
   * Processes counted: the group and every process carrying the run tag (setsid escapees); on
   * Windows, the root's process tree and every process of the run an earlier sample counted.
   */
  processes?: number
  /** A process counted in an earlier sample is still running but was not found or not readable. */
  partial?: boolean
}

export interface ExecutionHooks {
  /** Called once, right after the child exists. `runId` is the value of SHELLGATE_RUN_ID in its env. */
  onSpawn?(info: { pid: number; runId: string }): void
  /**
   * File mode: called once the output file exists, before the child does. Whoever reads the file
   * later (a task's tail, TaskOutput) checks it is still this file: the command may swap the path.
   */
  onOutputFile?(file: OutputFileRef): void
  /** After 2 s, then every 1 s while the child runs. */
  onProgress?(sample: ProgressSample): void
  /** posix-bash commands only: every 15 s, at most 20 times. */
  onResourceSample?(sample: ResourceSample): void
  /** Terminal runs: called once, before onSpawn, with the handle to type into the terminal. */
  onTerminal?(terminal: TerminalHandle): void
}

export interface ExecutionTimings {
  /** From the call to the child existing (or the spawn error). */
  spawnMs: number
  /** From spawn to the first output byte; null when nothing was printed (or file mode). */
  firstByteMs: number | null
  /** From spawn to exit (or to settlement when a killed child never exited). */
  runMs: number
  /** From the first termination signal to exit; null when nothing was terminated. */
  terminationWaitMs: number | null
  totalMs: number
}

export interface SpawnErrorInfo {
  /** errno code such as ENOENT, EACCES, EAGAIN, ELOOP (a symlink at the output path). */
  code: string
  message: string
}

export interface DiskFullDiagnosis {
  path: string
  freeBytes: number
  freeInodes: number
  message: string
}

/**
 * How a run that Shellgate ended (timeout, cancel, output limit) died. A process that exited by
 * itself before the first signal was sent was not ended by us: its result is completed/failed with
 * its own code and no termination (issue 24.1). One that answered the signal by exiting with a code
 * (a TERM trap) has `exitSignal` set to the signal that ended it, and `exitedOnItsOwn` with that code.
 */
export interface TerminationInfo {
  /** The last signal Shellgate sent the tree: SIGTERM, or SIGKILL after the grace (Windows: taskkill /F). */
  signal: NodeJS.Signals
  /** The process exited with a code rather than of the signal. */
  exitedOnItsOwn: boolean
  /** That code, when it exited on its own. */
  ownExitCode: number | null
  /** What could not be confirmed (survivors, a failed taskkill, a tree that may outlive its root); null when the tree is gone. */
  problem: string | null
}

/**
 * Processes the command left behind after its shell exited: ones that still held stdout/stderr
 * (pipe mode, after the 1 s drain) or that were still in its group (file mode). They were killed.
 */
export interface LingeringInfo {
  /** How many were found. */
  pids: number
  /** All of them are gone. */
  killed: boolean
  /** One of them kept the output pipe open. */
  heldOutput: boolean
}

export interface ExecutionResult {
  status: ExecutionStatus
  /**
   * null when the process was killed, timed out, was cancelled or never started. Exception, from
   * seed 000: Bash file mode settles the moment a kill is requested, with 143 (timeout) or 137
   * (cancel, output cap) and exitSignal null, while the tree is killed in the background.
   */
  exitCode: number | null
  exitSignal: NodeJS.Signals | null
  /** Pipe mode: decoded text (a cut never splits a UTF-8 character). Empty in file mode. */
  stdout: string
  stderr: string
  /** Output bytes were dropped (budget spent or file cap exceeded). */
  truncated: boolean
  /** Bytes the child printed (both streams, or the file size in file mode). */
  totalBytes: number
  /** A NUL in the first 4 KiB: show a placeholder with the byte count instead of text. */
  binary: boolean
  /** File mode: the output file. Pipe mode with persistDir: the stdout file when anything was persisted. */
  outputPath?: string
  /** Pipe mode with persistDir: the stderr file when anything was persisted. */
  stderrPath?: string
  timedOut: boolean
  cancelled: boolean
  /** The tree was killed for its output: pipe mode with onOutputLimit 'terminate', or the file cap. */
  outputLimitReached: boolean
  spawnError: SpawnErrorInfo | null
  /** Human text for non-completed runs, e.g. `Command timed out after 2m`. */
  errorMessage: string | null
  diskFull: DiskFullDiagnosis | null
  pid: number | null
  runId: string
  timings: ExecutionTimings
  /** Set when Shellgate terminated the run (timed_out, cancelled, output limit); null otherwise. */
  termination: TerminationInfo | null
  /** Set when something the command started outlived it and was killed; null otherwise. */
  lingering: LingeringInfo | null
  /**
   * File mode: the output file's identity when it was created. Whoever reads the file after the
   * run re-opens it with O_NOFOLLOW and checks it is still this file (see readOutputFileHead).
   */
  outputIdentity?: FileIdentity
}

export interface FileIdentity {
  dev: number
  ino: number
}

/** An output file as the executor created it: reads go through the path only while it is this file. */
export interface OutputFileRef {
  path: string
  identity: FileIdentity
}

export interface ExecutionPort {
  /** Resolves (never rejects) with the result; throws ExecInputError before any spawn on bad input. */
  execute(request: ExecutionRequest, hooks?: ExecutionHooks): Promise<ExecutionResult>
  /**
   * Resolves once every tree kill this port started has finished. Bash file mode answers the
   * moment a kill is requested while the tree is killed behind it, so whoever shuts down waits
   * here for the trees to be gone, not only for the results (issue 24.1).
   */
  whenQuiet?(): Promise<void>
}

/** seed 004: `runProcess(command, options)`. */
export interface ProcessCommand {
  file: string
  args: string[]
}

export interface RunProcessOptions {
  cwd?: string
  /** The whole environment of the child; default {} (never process.env). */
  env?: Record<string, string>
  /** 0 = no timer; negative is rejected. */
  timeoutMs: number
  /** Shared by stdout and stderr, in bytes; 0 is valid; negative is rejected. */
  maxOutputBytes: number
  signal?: AbortSignal
  /** Default 'truncate'. */
  onOutputLimit?: OutputLimitAction
}

export interface ProcessResult {
  status: ExecutionStatus
  stdout: string
  stderr: string
  exitCode: number | null
  exitSignal: NodeJS.Signals | null
  timedOut: boolean
  /** The run was cancelled through the signal (seed 004 calls this `aborted`). */
  cancelled: boolean
  truncated: boolean
  outputLimitReached: boolean
  spawnError: SpawnErrorInfo | null
  timings: ExecutionTimings
  /** As ExecutionResult.termination: the signal sent, or that the process beat it. */
  termination: TerminationInfo | null
}
