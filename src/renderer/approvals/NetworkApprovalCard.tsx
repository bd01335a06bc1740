import { type FormEvent, useRef, useState } from 'react'
import type { z } from 'zod'
import type { ApprovalAnswerSchema, PendingApproval } from '../../shared/ipc/domains/approvals'
import { FormError } from '../forms/FormError'
import { fieldErrorsFromRpc } from '../forms/field-errors'
import { formatTime } from '../format/measures'
import { useClient } from '../rpc'
import { RULE_SCOPES, type RuleScope } from '../settings-state/rule-scopes'
import type { ApprovalActionKind } from './approval-actions'
import { usePendingApprovals } from './PendingApprovalsProvider'
import { APPROVAL_CARD_ATTRIBUTE, useApprovalShortcuts } from './use-approval-shortcuts'

type ApprovalAnswer = z.infer<typeof ApprovalAnswerSchema>
/** A network rule is kept on this machine: the repository's file is never offered. */
const NETWORK_SCOPES = RULE_SCOPES.filter((option) => option.scope !== 'workspace')
const LABELS: Record<ApprovalActionKind, { label: string; key: string }> = {
  allow_once: { label: 'Allow once', key: '1' },
  always_allow: { label: 'Always for this domain', key: '2' },
  deny: { label: 'Deny', key: '3' },
}

/**
 * A running command wants a domain its network rules do not admit (issue 19.3): "`npm install`
 * wants registry.npmjs.org:443 — allow once / always for this domain / deny". The connection waits
 * on this card; the keys are those of every card. Minimal on purpose: desk-ui restyles it.
 */
export function NetworkApprovalCard({
  approval,
  isFirst,
  inline = false,
}: {
  approval: PendingApproval & { network: NonNullable<PendingApproval['network']> }
  isFirst: boolean
  inline?: boolean
}) {
  const client = useClient()
  const { forget } = usePendingApprovals()
  const card = useRef<HTMLElement>(null)
  const [always, setAlways] = useState(false)
  const [pattern, setPattern] = useState(approval.why.suggestedRules[0] ?? approval.network.host)
  const [scope, setScope] = useState<RuleScope>('local')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  const where = `${approval.network.host}:${approval.network.port}`

  const answer = (value: ApprovalAnswer) => {
    setBusy(true)
    setError(undefined)
    client.request('approvals.answer', { id: approval.id, answer: value }).then(
      () => forget(approval.id),
      (failure: unknown) => {
        setBusy(false)
        const errors = fieldErrorsFromRpc(failure, { rule: 'rule', scope: 'rule' })
        setError(errors.rule ?? errors.form)
      },
    )
  }
  const act = (kind: ApprovalActionKind) => {
    if (busy) return
    if (kind === 'always_allow') setAlways(true)
    else answer({ kind })
  }
  const keysArmed = useApprovalShortcuts(card, isFirst, act)
  const saveAlways = (event: FormEvent) => {
    event.preventDefault()
    answer({ kind: 'always_allow', rule: pattern, scope })
  }
  const Card = inline ? 'section' : 'article'

  return (
    <Card
      ref={card}
      className={`panel approval-card network-approval${inline ? ' approval-inline' : ''}`}
      aria-label={`Network: ${where}`}
      tabIndex={0}
      aria-keyshortcuts="1 2 3"
      data-keys-armed={keysArmed ? '' : undefined}
      {...{ [APPROVAL_CARD_ATTRIBUTE]: '' }}
    >
      <p className="approval-network-ask">
        <code>{approval.command}</code> wants <strong>{where}</strong>
      </p>
      <p className="muted">
        Its sandbox reaches only listed domains. The connection waits for your answer
        {approval.expiresAt ? `, until ${formatTime(approval.expiresAt)}` : ''}.
      </p>
      <div className="approval-actions">
        {(Object.keys(LABELS) as ApprovalActionKind[]).map((kind) => (
          <button
            key={kind}
            type="button"
            className={kind === 'deny' ? 'danger' : kind === 'allow_once' ? 'primary' : undefined}
            aria-keyshortcuts={LABELS[kind].key}
            disabled={busy}
            onClick={() => act(kind)}
          >
            {LABELS[kind].label}{' '}
            <span className="kbd" aria-hidden="true">
              {LABELS[kind].key}
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
          <label>
            Domain{' '}
            <select value={pattern} onChange={(event) => setPattern(event.target.value)}>
              {approval.why.suggestedRules.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          </label>
          <fieldset className="scope-choice">
            <legend>Remember for</legend>
            {NETWORK_SCOPES.map((option) => (
              <label key={option.scope} className="checkbox">
                <input
                  type="radio"
                  name={`scope-${approval.id}`}
                  checked={scope === option.scope}
                  onChange={() => setScope(option.scope)}
                />
                {option.label}
              </label>
            ))}
          </fieldset>
          <div className="form-actions">
            <button type="button" onClick={() => setAlways(false)}>
              Cancel
            </button>
            <button type="submit" className="primary" disabled={busy}>
              Save and allow
            </button>
          </div>
        </form>
      )}
      <FormError message={error} />
    </Card>
  )
}
