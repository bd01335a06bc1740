import type { PermissionMode } from '../../../shared/settings'
import type { RuleScope, ScopedRule } from '../settings/scoped-rules'

/** Why a command needs a person: computed by the permission policy, shown as-is on the card. */
export interface ApprovalWhy {
  /** One line a user can act on. */
  reason: string
  /** The simple commands that are not read-only, each with why. */
  nonReadOnly: { text: string; reason: string }[]
  /** The allow rule that almost matched (the policy's NearMiss fits), or null. */
  nearMiss: { rule: string; explanation: string } | null
  /** Rules that would allow this command, best first; the card pre-fills the first. */
  suggestedRules: string[]
}

export interface ApprovalRequest {
  sessionId: string
  /** The Bash call waiting on this approval, so the session's history can show the card inline. */
  callId?: string
  command: string
  cwd: string
  shell: string
  /** The caller's one-line description of the command, if any. */
  description?: string
  mode: PermissionMode
  why: ApprovalWhy
  /**
   * A network approval (issue 19.3): the running command wants this destination, which its rules
   * do not admit. Answering allows or refuses the connection, not the command; an always-allow
   * rule is a domain pattern.
   */
  network?: { host: string; port: number; method: string }
  /** The sandbox profile the command will run in (issue 12), shown on the card. */
  sandbox?: {
    /** agent-shell: a hook's command the agent runs in its own shell, unsandboxed (issue 20). */
    profile: 'read-only' | 'workspace-write' | 'off' | 'agent-shell'
    note: string | null
    unsandboxedAllowed: boolean
  }
  /** It runs on a terminal the agent can type into for the task's life (issue 23.2), shown on the card. */
  terminal?: { interpreter: string | null; note: string }
}

export interface PendingApproval extends ApprovalRequest {
  id: string
  requestedAt: string
  /** When the configured timeout will deny it; null when it waits indefinitely. */
  expiresAt: string | null
}

/** What a person can answer. The always-allow rule may be edited from the suggestion before saving. */
export type ApprovalAnswer =
  | { kind: 'allow_once'; unsandboxed?: boolean }
  | { kind: 'always_allow'; rule: string; scope: RuleScope }
  | { kind: 'deny'; message?: string }

export type DenialReason = 'user_deny' | 'approval_timeout' | 'session_closed' | 'cancelled'

/** What the waiting caller gets; decidedBy matches the audit log's vocabulary. */
export type ApprovalDecision =
  | { behavior: 'allow'; decidedBy: 'user_once'; approvedBy: string; unsandboxed?: boolean }
  | { behavior: 'allow'; decidedBy: 'user_always'; approvedBy: string; rule: ScopedRule }
  /** Answered by a rule the person saved on another card (approvedBy is who saved it). */
  | { behavior: 'allow'; decidedBy: 'rule'; approvedBy: string; rule: ScopedRule }
  | { behavior: 'deny'; decidedBy: DenialReason; approvedBy: string | null; message: string }

export type AnswerResult =
  /** alsoAnswered: other pending approvals a saved always-allow rule answered too. */
  | { ok: true; decision: ApprovalDecision; alsoAnswered?: number }
  | {
      ok: false
      code: 'not_found' | 'already_resolved' | 'invalid_input' | 'persist_failed'
      message: string
      /** For invalid_input: the field at fault (e.g. `rule`). */
      field?: string
    }

export interface ApprovalResolvedEvent {
  id: string
  sessionId: string
  decision: ApprovalDecision
}
