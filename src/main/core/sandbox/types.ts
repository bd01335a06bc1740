/**
 * The sandbox room's public types. An `ExecutionSandbox` is plain data on the execution request:
 * every path in it is already resolved (absolute, existing), so turning it into argv or a profile
 * text is a pure function and the exec room never learns why a profile was chosen.
 */

/** read-only: commands run without asking. workspace-write: approved or rule-allowed commands. */
export const SANDBOX_PROFILES = ['read-only', 'workspace-write', 'off'] as const
export type SandboxProfile = (typeof SANDBOX_PROFILES)[number]
/** The profiles that actually wrap a command. */
export type EnforcedProfile = Exclude<SandboxProfile, 'off'>

/** on: the host's network. off: an own, empty network namespace. allowlist: only through the host proxy. */
export type SandboxNetwork = 'on' | 'off' | 'allowlist'

/** A secret hidden from the command: an empty read-only tmpfs over a directory, /dev/null over a file. */
export interface HiddenPath {
  path: string
  kind: 'dir' | 'file'
}

/** A file under a hidden directory the executor itself needs inside (the snapshot, the cwd capture file). */
export interface ExposedPath {
  path: string
  writable: boolean
}

/** The host proxy an allowlist command reaches: a Unix socket bound in, bridged to 127.0.0.1:port. */
export interface SandboxProxy {
  socketPath: string
  port: number
}

export interface ExecutionSandbox {
  profile: EnforcedProfile
  /** Writable under workspace-write; readable (re-bound over the private /tmp if it lives there) under read-only. */
  workspace: string
  /** Extra writable directories under workspace-write (tool caches); ignored by read-only. */
  writableRoots: string[]
  /** Read-only even inside a writable root: .git/hooks, .git/config, <workspace>/.shellgate. */
  protectedPaths: string[]
  hidden: HiddenPath[]
  /**
   * An empty regular file bound over each hidden file. Not /dev/null: bwrap mounts binds nodev,
   * so a device bound over a file cannot even be opened. Required when a hidden entry is a file.
   */
  emptyFile?: string
  exposed: ExposedPath[]
  /** read-only always runs with 'off', whatever this says. */
  network: SandboxNetwork
  /** Required when network is 'allowlist'. */
  proxy?: SandboxProxy
  /** macOS: the per-run directory that stands in for a private tmp (Linux mounts a tmpfs instead). */
  privateTmp?: string
  /** Linux: default /usr/bin/bwrap. */
  bwrapPath?: string
  /**
   * The command runs on a pseudo-terminal of its own (issue 23.1). bwrap then keeps it in the
   * terminal's session (no --new-session), so Ctrl+C and job control reach it: the TIOCSTI
   * injection that --new-session prevents can only type into that same private terminal, whose
   * every reader is inside the sandbox.
   */
  privateTerminal?: boolean
}

/** What is spawned: the same shape as the exec room's SpawnPlan, so wrapping composes. */
export interface WrappablePlan {
  file: string
  args: string[]
  windowsVerbatimArguments: boolean
}
