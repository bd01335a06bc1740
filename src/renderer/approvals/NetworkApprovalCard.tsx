import { type FormEvent, useLayoutEffect, useRef, useState } from 'react'
import type { PendingApproval } from '../../shared/ipc/domains/approvals'
import { formatTime } from '../format/measures'
import { FormError } from '../forms/FormError'
import { RULE_SCOPES, type RuleScope } from '../settings-state/rule-scopes'
import { ScopeChoice } from './ScopeChoice'
import type { ApprovalActionKind } from './approval-actions'
import { useApprovalKeys } from './ApprovalKeys'
import { ApprovalKeysLine } from './ApprovalKeysLine'
import type { ApprovalAgent } from './approval-agent'
import { useApprovalAnswer } from './use-approval-answer'

/** A network rule is kept on this machine: the repository's file is never offered. */
const NETWORK_SCOPES = RULE_SCOPES.filter((option) => option.scope !== 'workspace')

/** The same keys as a command's card; 4 (deny with a message) has no meaning for a connection. */
const NETWORK_ACTIONS = [
  { kind: 'allow_once', label: 'Allow once', key: '1' },
  { kind: 'always_allow', label: 'Always for this domain', key: '2' },
  { kind: 'deny', label: 'Deny', key: '3' },
] as const

/**
 * A running command wants a domain its network rules do not admit (issue 19.3): "`npm install`
 * wants registry.npmjs.org:443 — allow once / always for this domain / deny". It waits in the
 * inbox with the command cards, oldest first, answered by the same keys.
 */
export function NetworkApprovalCard({
  approval,
  sessionTitle,
  agent = null,
  inline = false,
}: {
  approval: PendingApproval & { network: NonNullable<PendingApproval['network']> }
  sessionTitle: string | null
  agent?: ApprovalAgent | null
  inline?: boolean
}) {
  const card = useRef<HTMLElement>(null)
  const keys = useApprovalKeys()
  const { answer, busy, errors } = useApprovalAnswer(approval)
  const [always, setAlways] = useState(false)
  const [pattern, setPattern] = useState(approval.why.suggestedRules[0] ?? approval.network.host)
  const [scope, setScope] = useState<RuleScope>('local')
  const where = `${approval.network.host}:${approval.network.port}`
  const isTarget = keys?.targetId === approval.id

  const act = (kind: ApprovalActionKind) => {
    if (busy) return
    if (kind === 'always_allow') setAlways(true)
    // 4 (deny with a message) denies: a connection has nobody to read a message.
    else answer({ kind: kind === 'allow_once' ? 'allow_once' : 'deny' })
  }
  const latestAct = useRef(act)
  latestAct.current = act
  const register = keys?.register
  useLayoutEffect(
    () => register?.(approval.id, { act: (kind) => latestAct.current(kind), element: () => card.current }),
    [register, approval.id],
  )
  const saveAlways = (event: FormEvent) => {
    event.preventDefault()
    answer({ kind: 'always_allow', rule: pattern, scope })
  }
  const who = agent ? [agent.name, agent.version].filter(Boolean).join(' ') : 'Your command'
  const Card = inline ? 'section' : 'article'

  return (
    <Card
      ref={card}
      className={`panel approval-card network-approval${inline ? ' approval-inline' : ''}${isTarget ? ' key-target' : ''}`}
      aria-label={inline ? 'Approval needed' : `Network: ${where}`}
      tabIndex={0}
      aria-keyshortcuts={isTarget ? '1 2 3' : undefined}
      data-key-target={isTarget ? '' : undefined}
      data-keys-armed={isTarget && keys?.armed ? '' : undefined}
      data-approval-card=""
      onFocus={() => keys?.pick(approval.id)}
      onMouseDown={() => keys?.pick(approval.id)}
    >
      <section className="approval-why" aria-label="Why approval is needed">
        <p className="approval-reason">
          <code>{approval.command}</code> wants to reach <strong data-field="destination">{where}</strong>
        </p>
      </section>
      <p className="muted">
        Its sandbox reaches only the domains you listed, so the connection waits for your answer
        {approval.expiresAt ? `, until ${formatTime(approval.expiresAt)}` : ''}.
      </p>
      <dl className="inline-facts">
        <div className="fact">
          <dt>Asked by</dt>
          <dd>{who}</dd>
        </div>
        {agent && (
          <div className="fact">
            <dt>Workspace</dt>
            <dd>{agent.workspace}</dd>
          </div>
        )}
        {!inline && (
          <div className="fact">
            <dt>Session</dt>
            <dd>{sessionTitle ?? 'a closed session'}</dd>
          </div>
        )}
        <div className="fact">
          <dt>Requested</dt>
          <dd>{formatTime(approval.requestedAt)}</dd>
        </div>
      </dl>
      {keys && <ApprovalKeysLine keys={keys} isTarget={isTarget} network />}
      <div className="approval-actions">
        {NETWORK_ACTIONS.map((action) => (
          <button
            key={action.kind}
            type="button"
            className={
              action.kind === 'deny' ? 'danger' : action.kind === 'allow_once' ? 'primary' : undefined
            }
            aria-label={action.label}
            aria-keyshortcuts={action.key}
            aria-expanded={action.kind === 'always_allow' ? always : undefined}
            disabled={busy}
            onClick={() => act(action.kind)}
          >
            {action.label}{' '}
            <span className="kbd" aria-hidden="true">
              {action.key}
            </span>
          </button>
        ))}
      </div>
      {always && (
        <form
          className="approval-subform"
          aria-label="Always for this domain"
          onSubmit={saveAlways}
          noValidate
        >
          <label className="field">
            Domain
            <select value={pattern} onChange={(event) => setPattern(event.target.value)}>
              {(approval.why.suggestedRules.length > 0
                ? approval.why.suggestedRules
                : [approval.network.host]
              ).map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          </label>
          <ScopeChoice
            name={`scope-${approval.id}`}
            scope={scope}
            onChange={setScope}
            options={NETWORK_SCOPES}
            hints={false}
          />
          <div className="form-actions">
            <button
              type="button"
              onClick={() => {
                setAlways(false)
                card.current?.focus()
              }}
            >
              Cancel
            </button>
            <button type="submit" className="primary" disabled={busy}>
              Save and allow
            </button>
          </div>
        </form>
      )}
      <FormError message={errors.rule ?? errors.form} />
    </Card>
  )
}
