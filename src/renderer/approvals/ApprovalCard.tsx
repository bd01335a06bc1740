import { commandName } from '../format/command-name'
import { hiddenCharactersNotice, revealInvisible } from '../format/reveal-invisible'
import { useRef, useState } from 'react'
import type { z } from 'zod'
import type { ApprovalAnswerSchema, PendingApproval } from '../../shared/ipc/domains/approvals'
import { FormError } from '../forms/FormError'
import { fieldErrorsFromRpc } from '../forms/field-errors'
import { formatTime } from '../format/measures'
import { useClient } from '../rpc'
import { useSettings } from '../settings-state/SettingsProvider'
import { AlwaysAllowForm } from './AlwaysAllowForm'
import { ApprovalWhy } from './ApprovalWhy'
import { APPROVAL_ACTIONS, type ApprovalActionKind } from './approval-actions'
import { DenyForm } from './DenyForm'
import { usePendingApprovals } from './PendingApprovalsProvider'
import { APPROVAL_CARD_ATTRIBUTE, nextApprovalCard, useApprovalShortcuts } from './use-approval-shortcuts'

type ApprovalAnswer = z.infer<typeof ApprovalAnswerSchema>

/** One command waiting for the user: what, where, in which shell and mode, why, and the three answers. */
export function ApprovalCard({
  approval,
  sessionTitle,
  agent = null,
  isFirst,
}: {
  approval: PendingApproval
  sessionTitle: string | null
  /** The agent whose command this is, and its workspace; null for the person's own. */
  agent?: { name: string; version: string | null; workspace: string } | null
  isFirst: boolean
}) {
  const client = useClient()
  const { forget } = usePendingApprovals()
  const settings = useSettings()
  const card = useRef<HTMLElement>(null)
  const [open, setOpen] = useState<'always_allow' | 'deny' | null>(null)
  const [busy, setBusy] = useState(false)
  const [errors, setErrors] = useState<{ rule?: string; form?: string }>({})

  const answer = (value: ApprovalAnswer) => {
    setBusy(true)
    setErrors({})
    client.request('approvals.answer', { id: approval.id, answer: value }).then(
      () => {
        // Hand the focus on before the card goes, unless the user has already moved it elsewhere.
        const here = card.current
        if (here && (here.contains(document.activeElement) || document.activeElement === document.body))
          nextApprovalCard(here)?.focus()
        forget(approval.id)
        if (value.kind === 'always_allow') settings.reload()
      },
      (failure: unknown) => {
        setBusy(false)
        setErrors(fieldErrorsFromRpc(failure, { answer: 'rule', rule: 'rule' }))
      },
    )
  }
  const act = (kind: ApprovalActionKind) => {
    if (busy) return
    if (kind === 'allow_once') answer({ kind: 'allow_once' })
    else setOpen(kind)
  }
  const keysArmed = useApprovalShortcuts(card, isFirst, act)

  const facts: Array<[string, string]> = [
    ...(agent
      ? ([
          ['Agent', agent.version ? `${agent.name} ${agent.version}` : agent.name],
          ['Workspace', agent.workspace],
        ] as Array<[string, string]>)
      : []),
    ['Working directory', approval.cwd],
    ['Shell', approval.shell],
    ['Mode', approval.mode],
    ['Session', sessionTitle ?? approval.sessionId],
    ['Requested', formatTime(approval.requestedAt)],
  ]
  const command = revealInvisible(approval.command)
  if (approval.expiresAt) facts.push(['Denied automatically at', formatTime(approval.expiresAt)])

  return (
    <article
      ref={card}
      className="panel approval-card"
      aria-label={commandName(approval.command)}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the keys act only on the card with the focus, so keyboard users must be able to reach the card itself.
      tabIndex={0}
      aria-keyshortcuts="1 2 3"
      data-keys-armed={keysArmed ? '' : undefined}
      {...{ [APPROVAL_CARD_ATTRIBUTE]: '' }}
    >
      <pre className="approval-command" data-field="command">
        {command.text}
      </pre>
      {command.hidden > 0 && <p role="alert">{hiddenCharactersNotice(command.hidden)}</p>}
      {approval.description && <p className="muted">{approval.description}</p>}
      <dl className="inline-facts">
        {facts.map(([label, value]) => (
          <div key={label} className="fact">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <ApprovalWhy why={approval.why} />
      <div className="approval-actions">
        {APPROVAL_ACTIONS.map((action) => (
          <button
            key={action.kind}
            type="button"
            className={
              action.kind === 'deny' ? 'danger' : action.kind === 'allow_once' ? 'primary' : undefined
            }
            aria-label={action.label}
            aria-keyshortcuts={action.key}
            aria-expanded={action.kind === 'allow_once' ? undefined : open === action.kind}
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
      {open === 'always_allow' && (
        <AlwaysAllowForm
          initialRule={approval.why.suggestedRules[0] ?? approval.command}
          error={errors.rule ?? errors.form}
          busy={busy}
          onConfirm={(rule, scope) => answer({ kind: 'always_allow', rule, scope })}
          onCancel={() => setOpen(null)}
        />
      )}
      {open === 'deny' && (
        <DenyForm
          error={errors.form}
          busy={busy}
          onConfirm={(message) =>
            answer(message === undefined ? { kind: 'deny' } : { kind: 'deny', message })
          }
          onCancel={() => setOpen(null)}
        />
      )}
      {open === null && <FormError message={errors.form ?? errors.rule} />}
    </article>
  )
}
