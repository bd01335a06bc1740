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

/**
 * A secret hidden from the command: over a directory an empty read-only tmpfs it cannot list, over
 * a file (or socket) an empty file of mode 000, so opening it fails with "Permission denied".
 */
export interface HiddenPath {
  path: string
  kind: 'dir' | 'file'
  /**
   * A config file hidden only for a credential in it (/etc/gitconfig with a credential helper):
   * it reads as empty instead, since git and npm stop at a config file they cannot open.
   */
  readsEmpty?: boolean
}

/**
 * A host path bound read-only into the sandbox at `path`. `source` is where its contents really
 * are when `path` is a symlink on the host (a toolchain reached through `~/.nix-profile`): the
 * sandbox has no host symlinks outside what is mounted, so the contents are bound at the link's place.
 */
export interface MountedPath {
  path: string
  source?: string
  kind: 'dir' | 'file'
}

/** A symlink made inside the sandbox, as the host has it (merged /usr: `/bin -> usr/bin`). */
export interface SymlinkPath {
  path: string
  target: string
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
  /**
   * Linux, as root: the namespace made ahead for this one command with the proxy's bridge already
   * listening (spare-network.linux.ts), as /proc/<pid>/fd/<n>; the command joins it with nsenter.
   * Absent: bwrap makes a new namespace and the bridge starts inside it.
   */
  namespacePath?: string
}

/**
 * Reads are denied by default (issue 19): nothing of the host is in the sandbox unless a list below
 * names it. The sandbox room's planner (sandbox-layout.ts) fills these lists and says why each
 * entry is there; the platform files only turn them into argv or a profile.
 */
export interface ExecutionSandbox {
  profile: EnforcedProfile
  /** Read-only: the system folders, toolchains, folders the person added, allowed home config files. */
  readable: MountedPath[]
  /** Symlinks the system needs where a top-level folder is one (`/bin -> usr/bin`). */
  symlinks: SymlinkPath[]
  /** Empty folders standing in for the host's (the home folder); readable entries inside are bound after. */
  emptyDirs: string[]
  /** Writable under workspace-write; readable (re-bound over the private /tmp if it lives there) under read-only. */
  workspace: string
  /** Extra writable directories under workspace-write (tool caches, a linked worktree's git dir); ignored by read-only. */
  writableRoots: string[]
  /**
   * Writable under workspace-write at `path`, the contents at `source` (always set): the
   * workspace's own tool caches, bound where the tools look (tool-caches.ts). Linux only.
   */
  privateCaches: MountedPath[]
  /** Read-only even inside a writable root: .git/config, .git/hooks, .git/modules, <workspace>/.shellgate. */
  protectedPaths: string[]
  /** Writable again inside a protected path: an existing submodule's git dir inside .git/modules. */
  reopenedPaths: string[]
  hidden: HiddenPath[]
  /**
   * An empty regular file of mode 000 bound over each hidden file (sandbox-paths.ts,
   * ensureEmptyFile). Not /dev/null: bwrap mounts binds nodev. Required when a hidden entry is a file.
   */
  emptyFile?: string
  /** An empty readable file, bound over hidden entries that read as empty (HiddenPath.readsEmpty). */
  blankFile?: string
  exposed: ExposedPath[]
  /** Host Unix sockets the person allowed by path (Settings → Sandbox); workspace-write only. */
  allowedSockets: string[]
  /** read-only always runs with 'off', whatever this says. */
  network: SandboxNetwork
  /** Required under workspace-write when network is on or allowlist; read-only never has one. */
  egress?: SandboxEgress
  /** macOS: the per-run directory that stands in for a private tmp (Linux mounts a tmpfs instead). */
  privateTmp?: string
  /** Linux: default /usr/bin/bwrap. */
  bwrapPath?: string
  /**
   * Linux: bind sources opened and checked after planning (pinned-sources.linux.ts), each path
   * mapped to this process's descriptor of it, which bwrap binds instead (`--bind-fd`), so a name
   * swapped for a symlink by a command running at the same time cannot change what is mounted.
   */
  pinnedSources?: Record<string, number>
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
  /** Descriptors of this process the child gets as 3, 4, … (the pinned mount sources). */
  inheritFds?: readonly number[]
}
