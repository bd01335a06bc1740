import { z } from 'zod'
import {
  EnvironmentSettingsSchema,
  PermissionModeSchema,
  SandboxSettingsSchema,
  ShellSettingsSchema,
} from '../settings'
import { defineContract } from './define'
import { AboutSchema, NoticeSchema } from './domains/app'
import { ApprovalAnswerSchema, ApprovalResolvedSchema, PendingApprovalSchema } from './domains/approvals'
import {
  BashCallSchema,
  BashCheckInputSchema,
  BashCheckSchema,
  BashProgressSchema,
  BashRunInputSchema,
  OutputSliceSchema,
} from './domains/bash'
import { AgentClientStatusSchema, AgentsReportSchema } from './domains/agents'
import { KeptDecisionSchema, RuleOfferAcceptSchema, RuleOfferSchema } from './domains/rules'
import {
  HookDecideInputSchema,
  HookDecisionSchema,
  TicketOutputInputSchema,
  TicketOutputSchema,
  TicketRunInputSchema,
  TicketRunSchema,
} from './domains/hooks'
import { HubHelloSchema, UiAddressSchema, UiOpenedSchema } from './domains/hub'
import {
  SandboxStatusSchema,
  SetWorkspaceNetworkSchema,
  WorkspaceNetworkRefSchema,
  WorkspaceNetworkSchema,
} from './domains/sandbox'
import {
  SessionCreateInputSchema,
  SessionIdSchema,
  SessionSchema,
  WaitingAgentSchema,
} from './domains/sessions'
import { RuleChangeSchema, SettingsSnapshotSchema } from './domains/settings'
import {
  AuditEntryViewSchema,
  AuditQuerySchema,
  ConnectionReportSchema,
  EnvironmentReportSchema,
  ShellsReportSchema,
  UrlRouteSchema,
} from './domains/system'
import {
  BackgroundTaskSchema,
  TaskInputEntrySchema,
  TaskInputInputSchema,
  TaskInputResultSchema,
  TaskOutputSchema,
  TaskPortInputSchema,
  TaskRefSchema,
  TaskResizeInputSchema,
  TaskTerminalBytesSchema,
  TaskTerminalReadInputSchema,
  TaskWaitInputSchema,
  TaskWaitResultSchema,
} from './domains/tasks'

const NoInput = z.object({}).strict()
const Ok = z.object({ ok: z.literal(true) })
const SessionRef = z.object({ sessionId: SessionIdSchema }).strict()
const CallRef = z.object({ sessionId: SessionIdSchema, callId: z.string().min(1).max(128) }).strict()
const UrlInput = z.object({ url: z.string().min(1).max(8_192) }).strict()

/**
 * The one contract between the main process and every UI. Each request has an input and an output
 * schema and each event a payload schema; main validates inputs before any handler runs.
 */
export const contract = defineContract({
  requests: {
    /** Facts about this running instance for Settings → About. */
    'app.about': { role: 'agent', input: NoInput, output: AboutSchema },

    /**
     * The folder this Shellgate works in (null until one is chosen, when it started without
     * --workspace), the recently used ones, newest first, and the agent conversations open now
     * (agents work in their own folders and never wait on this choice).
     */
    'workspaces.recent': {
      role: 'ui',
      input: NoInput,
      output: z.object({
        current: z.string().nullable(),
        recent: z.array(z.string()),
        agents: z.array(WaitingAgentSchema),
      }),
    },
    /** Chooses the folder to work in (absolute, an existing directory) when none was given at start. */
    'workspaces.choose': {
      role: 'ui',
      input: z.object({ workspace: z.string().min(1).max(4_096) }).strict(),
      output: z.object({ workspace: z.string() }),
    },

    /** Open conversations (the person's and each agent run's, ended ones included), oldest first; they survive a restart. */
    'sessions.list': { role: 'ui', input: NoInput, output: z.array(SessionSchema) },
    /** A new session in the workspace; its shell is chosen now and fixed for its life. */
    'sessions.create': {
      role: 'agent',
      input: SessionCreateInputSchema,
      output: SessionSchema,
    },
    /**
     * The person closes a conversation: its pending approvals are denied, its tasks stopped, its
     * session rules and history forgotten. An agent closes only its own, and that only ends it
     * (approvals denied, tasks stopped, history kept and folded away).
     */
    'sessions.close': { role: 'agent', input: SessionRef, output: Ok },

    /** Runs one Bash tool call exactly as an agent would; resolves when it finishes, is denied or backgrounds. */
    'bash.run': { role: 'agent', input: BashRunInputSchema, output: BashCallSchema },
    /** Ends a call that has not answered: withdraws its approval or kills its foreground tree. Agents: own sessions only. */
    'bash.cancel': { role: 'agent', input: CallRef, output: BashCallSchema },
    /** Moves a running foreground call to a background task now, as its deadline would. Agents: own sessions only. */
    'bash.background': { role: 'agent', input: CallRef, output: BashCallSchema },
    /** The session's calls, oldest first. */
    'bash.history': { role: 'agent', input: SessionRef, output: z.array(BashCallSchema) },
    /** The full output file of one call (its last 4 MiB when longer). */
    'bash.output': {
      role: 'agent',
      input: z.object({ sessionId: SessionIdSchema, callId: z.string().max(128) }).strict(),
      output: OutputSliceSchema,
    },

    /** Approvals still waiting, so a reloaded UI shows them again. */
    'approvals.list': { role: 'ui', input: NoInput, output: z.array(PendingApprovalSchema) },
    /**
     * Answers one approval; each is resolved exactly once. A saved always-allow rule also answers
     * every other pending approval it now allows: `alsoAnswered` says how many.
     */
    'approvals.answer': {
      role: 'ui',
      input: z.object({ id: z.string().max(128), answer: ApprovalAnswerSchema }).strict(),
      output: z.object({ ok: z.literal(true), alsoAnswered: z.number().optional() }),
    },

    /** Every background task, newest first. */
    'tasks.list': { role: 'agent', input: NoInput, output: z.array(BackgroundTaskSchema) },
    /** The last 8192 bytes of a task's output, for the session that owns it. */
    'tasks.tail': {
      role: 'agent',
      input: z.object({ sessionId: SessionIdSchema, taskId: z.string().max(128) }).strict(),
      output: OutputSliceSchema,
    },
    /** Stops a task and its whole process tree; the user is recorded as who stopped it. */
    'tasks.stop': {
      role: 'agent',
      input: z.object({ taskId: z.string().max(128) }).strict(),
      output: BackgroundTaskSchema,
    },
    /**
     * A hook's question (the agent runs the command itself): allow or deny, after asking the person
     * when the rules say so; waits for them as long as the caller stays connected.
     */
    'hooks.decide': { role: 'agent', input: HookDecideInputSchema, output: HookDecisionSchema },
    /**
     * Runs the command a hook allowed, once, in the session it was decided in (`shellgate ticket T`,
     * what the client's shell tool runs instead); answers when it has ended, cancelled when the
     * caller disconnects. A used, expired or unknown ticket is refused.
     */
    'hooks.runTicket': { role: 'agent', input: TicketRunInputSchema, output: TicketRunSchema },
    /** The output of a ticket run so far, for the connection running it only. */
    'hooks.ticketOutput': { role: 'agent', input: TicketOutputInputSchema, output: TicketOutputSchema },
    /** TaskOutput: waits (bounded) for a session's task, or for the person's answer on a promised one. */
    'tasks.wait': { role: 'agent', input: TaskWaitInputSchema, output: TaskWaitResultSchema },
    /** Stops every running task. */
    'tasks.stopAll': { role: 'ui', input: NoInput, output: z.object({ stopped: z.number() }) },
    /**
     * Decisions kept for tasks promised at the 45 s deadline, newest first: an agent sees those of
     * its own agent in its sessions' workspaces (any earlier run), the person sees all.
     */
    'tasks.decisions': { role: 'agent', input: NoInput, output: z.array(KeptDecisionSchema) },
    /** The person forgets one kept decision; a later run then gets "no such task". */
    'tasks.clearDecision': {
      role: 'ui',
      input: z.object({ taskId: z.string().min(1).max(128) }).strict(),
      output: Ok,
    },

    /** Rules the desk offers after the person allowed the same command shape several times, newest first. */
    'rules.offers': { role: 'ui', input: NoInput, output: z.array(RuleOfferSchema) },
    /** Saves an offer as the person edited it (same checks as Always allow); answers what it now allows. */
    'rules.acceptOffer': {
      role: 'ui',
      input: RuleOfferAcceptSchema,
      output: z.object({ ok: z.literal(true), rule: z.string(), alsoAnswered: z.number() }),
    },
    /** Dismisses an offer: that command shape is not offered again in that workspace. */
    'rules.dismissOffer': {
      role: 'ui',
      input: z.object({ id: z.string().min(1).max(128) }).strict(),
      output: Ok,
    },
    /** Types into a running terminal task: the agent's input, or the person's when the UI asks (issue 23.2). */
    'tasks.input': { role: 'agent', input: TaskInputInputSchema, output: TaskInputResultSchema },
    /** What was typed into a task, by whom; hidden input has no text. The person's own view. */
    'tasks.inputs': { role: 'ui', input: TaskRefSchema, output: z.array(TaskInputEntrySchema) },
    /** Sets a terminal task's size (the desk's terminal view was resized). */
    'tasks.resize': { role: 'ui', input: TaskResizeInputSchema, output: Ok },
    /** A terminal task's raw output from a byte offset (at most 1 MiB), for the terminal view. */
    'tasks.terminalRead': { role: 'ui', input: TaskTerminalReadInputSchema, output: TaskTerminalBytesSchema },
    /**
     * Opens a port a task listens on to the person's browser: 127.0.0.1 on the host is forwarded
     * into the task's network namespace (issue 23.3). Only the person can; the sandbox still
     * cannot reach the host.
     */
    'tasks.openPort': { role: 'ui', input: TaskPortInputSchema, output: BackgroundTaskSchema },
    'tasks.closePort': { role: 'ui', input: TaskPortInputSchema, output: BackgroundTaskSchema },

    /** User and workspace settings, the rules in effect and any warnings about unreadable files. */
    'settings.get': {
      role: 'ui',
      input: z.object({ sessionId: SessionIdSchema.optional() }).strict(),
      output: SettingsSnapshotSchema,
    },
    /** Sets the permission mode. */
    'settings.setMode': {
      role: 'ui',
      input: z.object({ mode: PermissionModeSchema }).strict(),
      output: SettingsSnapshotSchema,
    },
    /** Chooses the shell for new sessions. */
    'settings.setShell': { role: 'ui', input: ShellSettingsSchema.strict(), output: SettingsSnapshotSchema },
    /** Network settings; empty strings clear a field. Validated before anything is saved. */
    'settings.setNetwork': {
      role: 'ui',
      input: z
        .object({
          httpProxy: z.string().max(2_048),
          noProxy: z.string().max(8_192),
          caCertFile: z.string().max(4_096),
          timeoutMs: z.number().int().positive().max(3_600_000).nullable(),
        })
        .strict(),
      output: SettingsSnapshotSchema,
    },
    /** Bash timeouts, the inline output length and how long an approval waits (0 = until answered). */
    'settings.setLimits': {
      role: 'ui',
      input: z
        .object({
          defaultTimeoutMs: z.number().int().positive(),
          maxTimeoutMs: z.number().int().positive(),
          maxOutputLength: z.number().int().positive(),
          approvalTimeoutMs: z.number().int().min(0),
          terminalIdleMinutes: z.number().int().min(0).optional(),
        })
        .strict(),
      output: SettingsSnapshotSchema,
    },
    /** Credential-like variable names agent commands may still see (environment.passThrough). */
    'settings.setEnvironment': {
      role: 'ui',
      input: z.object({ passThrough: EnvironmentSettingsSchema.shape.passThrough.unwrap() }).strict(),
      output: SettingsSnapshotSchema,
    },
    'settings.addRule': { role: 'ui', input: RuleChangeSchema, output: SettingsSnapshotSchema },
    'settings.removeRule': { role: 'ui', input: RuleChangeSchema, output: SettingsSnapshotSchema },

    /** The OS sandbox: mode, network, allowlist, extra hidden paths, tool caches. Validated before saving. */
    'settings.setSandbox': {
      role: 'ui',
      input: SandboxSettingsSchema.strict(),
      output: SettingsSnapshotSchema,
    },
    /** Which sandbox backend works here (probed once at start), and any bad sandbox setting. */
    'sandbox.status': { role: 'ui', input: NoInput, output: SandboxStatusSchema },
    /** A workspace's sandbox network on this machine: allowed host ports, domains allowed or denied. */
    'sandbox.workspaceNetwork': {
      role: 'ui',
      input: WorkspaceNetworkRefSchema,
      output: WorkspaceNetworkSchema,
    },
    /** Replaces it; a bad entry or one of Shellgate's own ports is refused and nothing is saved. */
    'sandbox.setWorkspaceNetwork': {
      role: 'ui',
      input: SetWorkspaceNetworkSchema,
      output: WorkspaceNetworkSchema,
    },
    /**
     * Accepts the workspace file's allow rules as they are now (a repository's own rules start
     * untrusted). When one of them is broad (`*`, `rm:*`, …), confirmBroad must say the person saw that.
     */
    'settings.trustWorkspaceRules': {
      role: 'ui',
      input: z.object({ confirmBroad: z.boolean().optional() }).strict(),
      output: SettingsSnapshotSchema,
    },

    /** Shell candidates on this machine and the one in effect. */
    'shells.list': { role: 'ui', input: NoInput, output: ShellsReportSchema },
    /** The login-shell capture: status, shell, duration, key names (never values). */
    'env.report': { role: 'ui', input: NoInput, output: EnvironmentReportSchema },
    /** Where a URL would go (proxy or direct) and which rule decided; sends nothing. */
    'network.route': { role: 'ui', input: UrlInput, output: UrlRouteSchema },
    /** One request through the app's HTTP client. */
    'network.test': { role: 'ui', input: UrlInput, output: ConnectionReportSchema },
    /** The audit log, newest first, filtered. */
    'audit.query': {
      role: 'ui',
      input: AuditQuerySchema,
      output: z.object({ entries: z.array(AuditEntryViewSchema), skippedLines: z.number() }),
    },

    /** Agent sessions (connected now or not, what each runs) and how to connect each client. */
    'agents.list': { role: 'ui', input: NoInput, output: AgentsReportSchema },
    /**
     * Settings → Agents, as `shellgate doctor --json` prints it: per client its files, the command
     * found, the MCP server answering, the hook (and Codex's trust), last seen. Starts `<command> mcp`
     * once per client, so it takes a few seconds.
     */
    'agents.status': {
      role: 'ui',
      input: NoInput,
      output: z.object({ clients: z.array(AgentClientStatusSchema) }),
    },
    /** Which hub this is; a client checks the hubId against run/hub.json ("a key from another hub"). */
    'hub.hello': { role: 'agent', input: NoInput, output: HubHelloSchema },
    /**
     * A fresh login address for one more browser, for the person's own UI only: an agent runs as
     * the same user, so opening the hub socket proves nothing (issue 20). Agents get hub.openUi.
     */
    'hub.mintUiAddress': { role: 'ui', input: NoInput, output: UiAddressSchema },
    /**
     * Opens a fresh login address in the person's browser, from the hub itself (`shellgate ui`, a
     * second `serve`, the hub `shellgate mcp` started): the code never reaches whoever asked.
     */
    'hub.openUi': { role: 'agent', input: NoInput, output: UiOpenedSchema },
    /** What would happen to a command in a session now (run, ask or deny, and why); runs nothing. */
    'bash.check': { role: 'agent', input: BashCheckInputSchema, output: BashCheckSchema },
  },
  events: {
    /** Something the user should see that belongs to no single screen (e.g. a settings file was unreadable). */
    'app.notice': { payload: NoticeSchema },
    'sessions.changed': { payload: z.object({ sessions: z.array(SessionSchema) }) },
    /** A call was created or changed state. */
    'bash.call': { payload: BashCallSchema },
    /** Live progress of a running call, coalesced. */
    'bash.progress': { payload: BashProgressSchema },
    'approvals.requested': { payload: PendingApprovalSchema },
    'approvals.resolved': { payload: ApprovalResolvedSchema },
    /** A task was registered or changed state. */
    'tasks.updated': { payload: BackgroundTaskSchema },
    /** New output of a running task, at most ~20 per second per task. */
    'tasks.output': { payload: TaskOutputSchema },
    /** The desk has a new rule to offer (rules.offers lists them all). */
    'rules.offered': { payload: RuleOfferSchema },
    /** A terminal task's raw output as it arrives, coalesced; never sent to agents. */
    'tasks.terminalData': { payload: TaskTerminalBytesSchema },
    /** Someone typed into a task (or an entry was sealed); never sent to agents. */
    'tasks.input': { payload: TaskInputEntrySchema },
    /** Settings changed (from this UI, another window or a file). */
    'settings.changed': { payload: z.object({ scope: z.enum(['user', 'workspace', 'session', 'local']) }) },
  },
})

export type ShellgateContract = typeof contract
