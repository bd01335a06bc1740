import type { SandboxNetwork } from '../../../shared/settings'

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

/**
 * Every profile runs in its own network namespace. on / allowlist: egress only through the host
 * proxy, which applies the policy (see SandboxNetworkSchema). off: nothing but the namespace's own loopback.
 */
export type { SandboxNetwork }

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

/**
 * How a command with a network reaches out: the host proxy, and the host loopback ports its
 * workspace allows. Linux: each is a Unix socket in `socketDir` (proxy.sock, port-N.sock), the folder
 * bound into the sandbox and bridged to 127.0.0.1:PORT inside. macOS: the proxy listens on the host's
 * loopback and the profile allows exactly these ports.
 */
export interface SandboxEgress {
  /** Linux: the host folder of this run's sockets. */
  socketDir: string
  /** Linux: the proxy's port on 127.0.0.1 inside the namespace (3128); macOS: its port on the host's loopback. */
  proxyPort: number
  /** Host loopback ports the person allowed for this workspace (never Shellgate's own). */
  allowedPorts: number[]
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
  /** Required under workspace-write when network is on or allowlist; read-only never has one. */
  egress?: SandboxEgress
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
