import { z } from 'zod'

/** build: read-only runs, the rest asks. plan: read-only runs, the rest is denied. yolo: everything runs. */
export const PermissionModeSchema = z.enum(['build', 'plan', 'yolo'])
export type PermissionMode = z.infer<typeof PermissionModeSchema>

/** A Bash rule as the user writes it: an exact command, `prefix:*` (word boundary) or a `*` wildcard. */
export const BashRuleSchema = z.string().trim().min(1, 'a rule cannot be empty').max(2_000)

/** Every decision scans every rule: a file (maybe a repository's own) with 40 000 of them cost 1.5 s each. */
export const MAX_RULES_PER_LIST = 1_000

const RuleListSchema = z
  .array(BashRuleSchema)
  .max(MAX_RULES_PER_LIST, `at most ${MAX_RULES_PER_LIST} rules per list`)
  .default([])

/**
 * Commands a rule must and must not match, checked when the rules load: an example that fails
 * makes the file invalid (the last good settings stay), with an error that names the rule.
 */
export const RuleExamplesSchema = z.strictObject({
  matches: z.array(z.string().min(1).max(2_000)).max(50).default([]),
  doesNotMatch: z.array(z.string().min(1).max(2_000)).max(50).default([]),
})
export type RuleExamples = z.infer<typeof RuleExamplesSchema>

export const PermissionRulesSchema = z.object({
  allow: RuleListSchema,
  ask: RuleListSchema,
  deny: RuleListSchema,
  /** Keyed by the rule exactly as written in allow, ask or deny. */
  examples: z.record(z.string().max(2_000), RuleExamplesSchema).optional(),
})
export type PermissionRules = z.infer<typeof PermissionRulesSchema>

/** auto picks per platform; bash/zsh on macOS and Linux; git-bash/cmd on Windows. */
export const ShellKindSchema = z.enum(['auto', 'bash', 'zsh', 'git-bash', 'cmd'])
export type ShellKind = z.infer<typeof ShellKindSchema>

export const ShellSettingsSchema = z.object({
  kind: ShellKindSchema.default('auto'),
  /** An explicit executable; empty means "find it". */
  path: z.string().max(4_096).optional(),
})

export const NetworkSettingsSchema = z.object({
  httpProxy: z.string().max(2_048).optional(),
  noProxy: z.string().max(8_192).optional(),
  caCertFile: z.string().max(4_096).optional(),
  timeoutMs: z.number().int().positive().max(3_600_000).optional(),
})
export type NetworkSettings = z.infer<typeof NetworkSettingsSchema>

export const LimitsSettingsSchema = z.object({
  defaultTimeoutMs: z.number().int().positive().max(600_000).default(120_000),
  maxTimeoutMs: z.number().int().positive().max(3_600_000).default(600_000),
  maxOutputLength: z.number().int().positive().max(150_000).default(30_000),
  /** A terminal task with no input and no output for this long is stopped (issue 23.4); 0 = never. */
  terminalIdleMinutes: z.number().int().min(0).max(1_440).default(30),
})

export const ApprovalSettingsSchema = z.object({
  /** 0 means a pending approval waits until someone answers or its session closes. */
  timeoutMs: z.number().int().min(0).max(86_400_000).default(0),
})

/**
 * The OS sandbox (issue 12). auto: read-only for commands run without asking, workspace-write for
 * the rest, off with a warning where the platform has no backend. strict: no backend, no command.
 * Entries are plain strings here; the sandbox room checks them (a domain, an existing path) and
 * reports each bad one in Settings and in the command's result instead of discarding the file.
 */
export const SandboxModeSchema = z.enum(['auto', 'strict', 'off'])
export type SandboxMode = z.infer<typeof SandboxModeSchema>
/**
 * Every sandboxed command has its own network namespace (issue 19.3); this says what its egress
 * through Shellgate's proxy may reach. on: any public destination (the public egress policy: no
 * loopback, private or link-local address). allowlist: only listed domains; any other is asked
 * per domain. off: nothing at all. The host's loopback is never reachable, except the ports a
 * person allows for a workspace, and only when the network is not off.
 */
export const SandboxNetworkSchema = z.enum(['on', 'off', 'allowlist'])
export type SandboxNetwork = z.infer<typeof SandboxNetworkSchema>

/** The sandbox proxy's port on 127.0.0.1 inside each command's network namespace. */
export const SANDBOX_PROXY_PORT_INSIDE = 3128

// A host name of letters, digits and hyphens, with an optional leading `*.` for subdomains.
const DOMAIN_PATTERN =
  /^(\*\.)?(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/

/** A network rule's pattern: a host name, or `*.` and a name for its subdomains (not the name itself). */
export function isDomainPattern(entry: string): boolean {
  return DOMAIN_PATTERN.test(entry.toLowerCase()) && !/^\d+(\.\d+)*$/.test(entry.replace(/^\*\./, ''))
}

export const NetworkPatternSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .refine(
    isDomainPattern,
    'must be a host name such as registry.npmjs.org, or *.example.com for its subdomains',
  )

const NetworkPatternListSchema = z.array(NetworkPatternSchema).max(500, 'at most 500 domains').default([])

/** A host loopback port a workspace's commands may reach; never the proxy's own port inside. */
export const SandboxPortSchema = z
  .number()
  .int('must be a whole number')
  .min(1, 'must be a TCP port (1-65535)')
  .max(65_535, 'must be a TCP port (1-65535)')
  .refine(
    (port) => port !== SANDBOX_PROXY_PORT_INSIDE,
    `${SANDBOX_PROXY_PORT_INSIDE} is the sandbox proxy's own port inside every command; it cannot be allowed`,
  )

export const SandboxSettingsSchema = z.object({
  mode: SandboxModeSchema.default('auto'),
  /** The network of workspace-write commands; read-only commands never have one. */
  network: SandboxNetworkSchema.default('on'),
  /** Domains admitted without asking in every workspace (network allowlist); `*.example.com` admits subdomains. */
  allowlist: z.array(z.string().max(253)).max(500).default([]),
  /** Domains refused under any network setting, in every workspace. */
  denylist: z.array(z.string().max(253)).max(500).default([]),
  /** Hidden in addition to the built-in secrets (~/.ssh, ~/.aws, …); `~/` is the home directory. */
  hiddenPaths: z.array(z.string().max(4_096)).max(200).default([]),
  /**
   * Caches shared with the person's own builds, writable under workspace-write. Absent: each
   * workspace gets its own copy of the npm, pnpm, yarn, pip, cargo and go caches the home has
   * (sandbox/tool-caches.ts), so nothing a command plants reaches a build outside the sandbox.
   */
  toolCaches: z.array(z.string().max(4_096)).max(200).optional(),
  /**
   * Folders readable in both profiles besides the system, the workspace and the toolchains on
   * PATH (reads are denied by default); the built-in secrets inside them stay hidden.
   */
  readablePaths: z.array(z.string().max(4_096)).max(200).default([]),
  /** Host Unix sockets approved commands may connect to (the Docker socket); hidden otherwise. */
  allowedSockets: z.array(z.string().max(4_096)).max(50).default([]),
})
export type SandboxSettings = z.infer<typeof SandboxSettingsSchema>
/** A portable environment variable name: what `export NAME=…` accepts. */
export const EnvVarNameSchema = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]*$/,
    'must be a variable name: letters, digits and _, not starting with a digit',
  )
  .max(256)

/** Credential-like variables are withheld from agent commands; these names are let through. */
export const EnvironmentSettingsSchema = z.object({
  passThrough: z.array(EnvVarNameSchema).max(256, 'at most 256 names').default([]),
})
export type EnvironmentSettings = z.infer<typeof EnvironmentSettingsSchema>
/** Where read-only commands may read without asking (issue 13, class 6). */
export const ReadPlacesSettingsSchema = z.object({
  /** ask: a read-only command whose paths leave the workspace asks first; allow: it runs. */
  readsOutsideWorkspace: z.enum(['ask', 'allow']).default('ask'),
  /** Folders outside the workspace that read-only commands may read without asking. */
  readableFolders: z.array(z.string().min(1).max(4_096)).max(100).default([]),
})
export type ReadPlacesSettings = z.infer<typeof ReadPlacesSettingsSchema>

/** SHELLGATE_HOME/settings.json */
export const UserSettingsSchema = z.object({
  shell: ShellSettingsSchema.default({ kind: 'auto' }),
  permissions: z
    .object({ mode: PermissionModeSchema.default('build') })
    .extend(PermissionRulesSchema.shape)
    .default({ mode: 'build', allow: [], ask: [], deny: [] }),
  network: NetworkSettingsSchema.default({}),
  limits: LimitsSettingsSchema.default({
    defaultTimeoutMs: 120_000,
    maxTimeoutMs: 600_000,
    maxOutputLength: 30_000,
    terminalIdleMinutes: 30,
  }),
  approvals: ApprovalSettingsSchema.default({ timeoutMs: 0 }),
  sandbox: SandboxSettingsSchema.default({
    mode: 'auto',
    network: 'on',
    allowlist: [],
    denylist: [],
    hiddenPaths: [],
    readablePaths: [],
    allowedSockets: [],
  }),
  environment: EnvironmentSettingsSchema.default({ passThrough: [] }),
  readPlaces: ReadPlacesSettingsSchema.default({ readsOutsideWorkspace: 'ask', readableFolders: [] }),
})
export type UserSettings = z.infer<typeof UserSettingsSchema>

/** <workspace>/.shellgate/settings.json: rules only, because a repository's own files may be hostile. */
export const WorkspaceSettingsSchema = z.object({
  permissions: PermissionRulesSchema.default({ allow: [], ask: [], deny: [] }),
})
export type WorkspaceSettings = z.infer<typeof WorkspaceSettingsSchema>

/**
 * SHELLGATE_HOME/workspaces/<hash>.network.json: one workspace's network, kept on this machine like
 * its local rules and never read from the repository (a repository's own files may be hostile).
 */
export const WorkspaceNetworkSettingsSchema = z.object({
  /** The real path this file belongs to; informative (the file name is its hash). */
  workspace: z.string().max(4_096).optional(),
  /** Host loopback ports this workspace's commands may reach (a local database for `npm test`). */
  allowedPorts: z
    .array(SandboxPortSchema)
    .max(64, 'at most 64 ports')
    .refine((ports) => new Set(ports).size === ports.length, 'lists a port twice')
    .default([]),
  /** Domains admitted without asking in this workspace. */
  allowlist: NetworkPatternListSchema,
  /** Domains refused in this workspace. */
  denylist: NetworkPatternListSchema,
})
export type WorkspaceNetworkSettings = z.infer<typeof WorkspaceNetworkSettingsSchema>

export function defaultUserSettings(): UserSettings {
  return UserSettingsSchema.parse({})
}
