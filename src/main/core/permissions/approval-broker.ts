import { randomUUID } from 'node:crypto'
import { SettingsError } from '../settings/settings-error'
import type { ScopedRule } from '../settings/scoped-rules'
import type { RuleChange, SettingsStore } from '../settings/settings-store'
import type {
  AnswerResult,
  ApprovalAnswer,
  ApprovalDecision,
  ApprovalRequest,
  ApprovalResolvedEvent,
  DenialReason,
  PendingApproval,
} from './approval-broker-types'
import { broadRuleProblem } from './broad-rules'

/** Answers for ids resolved this long ago still say already_resolved instead of not_found. */
const RESOLVED_IDS_KEPT = 1_000

/** Default texts returned to the caller (the model) when a command is denied. */
export const DENIAL_MESSAGES: Record<DenialReason, (timeoutMs: number) => string> = {
  user_deny: () => 'The user denied this command.',
  approval_timeout: (ms) =>
    `No one answered the approval within ${Math.round(ms / 1000)} s, so the command was denied.`,
  session_closed: () => 'The session was closed before anyone answered, so the command was denied.',
  cancelled: () => 'The call was cancelled while waiting for approval; nothing ran.',
}

export interface ApprovalBrokerOptions {
  /** Where always-allow rules are saved (the settings store). */
  rules: Pick<SettingsStore, 'addRule'>
  /** settings approvals.timeoutMs, read at each request; 0 waits until answered or the session closes. */
  timeoutMs: () => number
  now?: () => Date
}

export interface ApprovalBroker {
  /** Registers a pending approval; `decision` settles exactly once. Aborting `signal` denies it. */
  request(
    input: ApprovalRequest,
    options?: {
      signal?: AbortSignal
      /**
       * Checks an edited always-allow rule against this command: an error message keeps the card
       * pending, so a rule that would not even allow this command (or allows far more than the
       * user saw) is never saved by accident.
       */
      checkRule?: (rule: string) => string | null
      /**
       * Whether a rule just saved (by answering another card) now allows this command with every
       * rule in effect; when it does, this approval is answered by that rule at once.
       */
      coveredBy?: (rule: ScopedRule) => boolean
      /** Waits this long instead of the approvals.timeoutMs setting (a network approval holds a connection). */
      timeoutMs?: number
      /** Saves the always-allow rule instead of the command rule lists (a network approval's domain). */
      saveRule?: (change: RuleChange) => Promise<ScopedRule>
    },
  ): {
    approval: PendingApproval
    decision: Promise<ApprovalDecision>
  }
  /** The first answer wins; later ones get already_resolved. A bad always-allow rule leaves it pending. */
  answer(id: string, answer: ApprovalAnswer, answeredBy?: string): Promise<AnswerResult>
  /** Pending approvals, oldest first (a reloaded renderer calls this to show them again). */
  list(sessionId?: string): PendingApproval[]
  /** Denies every pending approval of the session; returns how many. */
  closeSession(sessionId: string): number
  onRequested(listener: (approval: PendingApproval) => void): () => void
  onResolved(listener: (event: ApprovalResolvedEvent) => void): () => void
  /** Denies everything still pending (as cancelled) and clears the timers. */
  dispose(): void
}

interface Entry {
  approval: PendingApproval
  /** 'saving' while an always-allow rule is being written: the approval is claimed but not yet decided. */
  state: 'pending' | 'saving'
  /** A denial (timeout, session close, cancel) that arrived while saving; applied if the save fails. */
  deferredDenial: DenialReason | null
  timeoutMs: number
  checkRule: ((rule: string) => string | null) | null
  coveredBy: ((rule: ScopedRule) => boolean) | null
  saveRule: ((change: RuleChange) => Promise<ScopedRule>) | null
  settle: (decision: ApprovalDecision) => void
  cleanup: () => void
}

export function createApprovalBroker(options: ApprovalBrokerOptions): ApprovalBroker {
  const now = options.now ?? (() => new Date())
  const entries = new Map<string, Entry>()
  const resolvedIds = new Set<string>()
  const requestedListeners = new Set<(approval: PendingApproval) => void>()
  const resolvedListeners = new Set<(event: ApprovalResolvedEvent) => void>()

  const resolve = (entry: Entry, decision: ApprovalDecision) => {
    const { id, sessionId } = entry.approval
    if (!entries.delete(id)) return
    entry.cleanup()
    resolvedIds.add(id)
    if (resolvedIds.size > RESOLVED_IDS_KEPT) resolvedIds.delete(resolvedIds.values().next().value!)
    entry.settle(decision)
    for (const listener of resolvedListeners) listener({ id, sessionId, decision })
  }

  /** Returns null when the denial is deferred behind an always-allow save. */
  const deny = (
    entry: Entry,
    reason: DenialReason,
    message?: string,
    approvedBy: string | null = null,
  ): ApprovalDecision | null => {
    if (entry.state === 'saving') {
      entry.deferredDenial ??= reason
      return null
    }
    const text = message?.trim() || DENIAL_MESSAGES[reason](entry.timeoutMs)
    const decision: ApprovalDecision = { behavior: 'deny', decidedBy: reason, approvedBy, message: text }
    resolve(entry, decision)
    return decision
  }

  const saveAlwaysAllow = async (
    entry: Entry,
    answer: Extract<ApprovalAnswer, { kind: 'always_allow' }>,
    by: string,
  ): Promise<AnswerResult> => {
    // Refused here, not only in a UI: a card is answered in a glance, and `*` or `rm:*` saved in
    // a glance would stop every later command from asking.
    const broad = entry.saveRule ? null : broadRuleProblem(answer.rule)
    if (broad)
      return {
        ok: false,
        code: 'invalid_input',
        message: `${broad}; a rule this broad is not saved from an approval card (add it in Settings → Permissions if you mean it)`,
        field: 'rule',
      }
    const problem = entry.checkRule?.(answer.rule) ?? null
    if (problem) return { ok: false, code: 'invalid_input', message: problem, field: 'rule' }
    entry.state = 'saving'
    const change: RuleChange = {
      scope: answer.scope,
      list: 'allow',
      rule: answer.rule,
      sessionId: entry.approval.sessionId,
    }
    let failure: AnswerResult | null = null
    try {
      const rule = await (entry.saveRule ?? options.rules.addRule)(change)
      entry.state = 'pending'
      const decision: ApprovalDecision = { behavior: 'allow', decidedBy: 'user_always', approvedBy: by, rule }
      resolve(entry, decision)
      return { ok: true, decision, alsoAnswered: answerCovered(rule, by, entry.saveRule !== null) }
    } catch (error) {
      failure =
        error instanceof SettingsError && error.code === 'invalid_input'
          ? { ok: false, code: 'invalid_input', message: error.message, field: error.field }
          : {
              ok: false,
              code: 'persist_failed',
              message: `the rule was not saved: ${(error as Error).message}`,
            }
    }
    entry.state = 'pending'
    if (entry.deferredDenial) deny(entry, entry.deferredDenial)
    return failure
  }

  /** Every other pending approval the saved rule now allows is answered by it; returns how many. */
  const answerCovered = (rule: ScopedRule, by: string, savedByItsOwnSaver: boolean): number => {
    let answered = 0
    for (const other of [...entries.values()]) {
      // A domain rule answers only network approvals, a command rule only command approvals.
      if ((other.saveRule !== null) !== savedByItsOwnSaver) continue
      if (other.state !== 'pending' || !other.coveredBy?.(rule)) continue
      resolve(other, { behavior: 'allow', decidedBy: 'rule', approvedBy: by, rule })
      answered += 1
    }
    return answered
  }

  return {
    request(input, requestOptions = {}) {
      const id = randomUUID()
      const timeoutMs = requestOptions.timeoutMs ?? options.timeoutMs()
      const requestedAt = now()
      const approval: PendingApproval = {
        ...input,
        id,
        requestedAt: requestedAt.toISOString(),
        expiresAt: timeoutMs > 0 ? new Date(requestedAt.getTime() + timeoutMs).toISOString() : null,
      }
      let settle!: (decision: ApprovalDecision) => void
      const decision = new Promise<ApprovalDecision>((resolvePromise) => {
        settle = resolvePromise
      })
      const { signal } = requestOptions
      const entry: Entry = {
        approval,
        state: 'pending',
        deferredDenial: null,
        checkRule: requestOptions.checkRule ?? null,
        coveredBy: requestOptions.coveredBy ?? null,
        saveRule: requestOptions.saveRule ?? null,
        timeoutMs,
        settle,
        cleanup: () => {},
      }
      const onAbort = () => deny(entry, 'cancelled')
      const timer = timeoutMs > 0 ? setTimeout(() => deny(entry, 'approval_timeout'), timeoutMs) : null
      entry.cleanup = () => {
        if (timer) clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
      }
      entries.set(id, entry)
      for (const listener of requestedListeners) listener(approval)
      if (signal?.aborted) onAbort()
      else signal?.addEventListener('abort', onAbort, { once: true })
      return { approval, decision }
    },

    async answer(id, answer, answeredBy = 'user') {
      const entry = entries.get(id)
      if (!entry || entry.state === 'saving') {
        return entry || resolvedIds.has(id)
          ? { ok: false, code: 'already_resolved', message: `approval ${id} was already answered` }
          : { ok: false, code: 'not_found', message: `no pending approval with id ${id}` }
      }
      switch (answer.kind) {
        case 'allow_once': {
          if (answer.unsandboxed && entry.approval.network) {
            return {
              ok: false,
              code: 'invalid_input',
              message:
                'a network approval allows or refuses one connection; it cannot run anything unsandboxed',
              field: 'unsandboxed',
            }
          }
          if (answer.unsandboxed && entry.approval.sandbox?.unsandboxedAllowed === false) {
            return {
              ok: false,
              code: 'invalid_input',
              message: 'this command cannot run unsandboxed (sandbox mode is strict)',
              field: 'unsandboxed',
            }
          }
          const decision: ApprovalDecision = {
            behavior: 'allow',
            decidedBy: 'user_once',
            approvedBy: answeredBy,
            ...(answer.unsandboxed ? { unsandboxed: true } : {}),
          }
          resolve(entry, decision)
          return { ok: true, decision }
        }
        case 'always_allow':
          return saveAlwaysAllow(entry, answer, answeredBy)
        case 'deny':
          return { ok: true, decision: deny(entry, 'user_deny', answer.message, answeredBy)! }
        default:
          return {
            ok: false,
            code: 'invalid_input',
            message: 'answer must be allow_once, always_allow or deny',
            field: 'kind',
          }
      }
    },

    list(sessionId) {
      return [...entries.values()]
        .map((entry) => entry.approval)
        .filter((approval) => sessionId === undefined || approval.sessionId === sessionId)
    },

    closeSession(sessionId) {
      const closing = [...entries.values()].filter((entry) => entry.approval.sessionId === sessionId)
      for (const entry of closing) deny(entry, 'session_closed')
      return closing.length
    },

    onRequested(listener) {
      requestedListeners.add(listener)
      return () => requestedListeners.delete(listener)
    },

    onResolved(listener) {
      resolvedListeners.add(listener)
      return () => resolvedListeners.delete(listener)
    },

    dispose() {
      for (const entry of [...entries.values()]) deny(entry, 'cancelled')
    },
  }
}
