import { useEffect, useRef, useState } from 'react'
import { CommandText } from '../commands/CommandText'
import { commandName } from '../format/command-name'
import type { z } from 'zod'
import type { ApprovalAnswerSchema, PendingApproval } from '../../shared/ipc/domains/approvals'
import { FormError } from '../forms/FormError'
import { fieldErrorsFromRpc } from '../forms/field-errors'
import { formatTime } from '../format/measures'
import { useClient } from '../rpc'
import { useSettings } from '../settings-state/SettingsProvider'
import { AlwaysAllowForm } from './AlwaysAllowForm'
import { ApprovalSandboxLine } from './ApprovalSandboxLine'
import { ApprovalTerminalLine } from './ApprovalTerminalLine'
import { ApprovalWhy } from './ApprovalWhy'
import { APPROVAL_ACTIONS, type ApprovalActionKind } from './approval-actions'
import { DenyForm } from './DenyForm'
import { NetworkApprovalCard } from './NetworkApprovalCard'
import { usePendingApprovals } from './PendingApprovalsProvider'
import { COMMAND_BOX_ATTRIBUTE } from '../session/CommandForm'
import {
  APPROVAL_CARD_ATTRIBUTE,
  APPROVAL_SCOPE_ATTRIBUTE,
  nextApprovalCard,
  useApprovalShortcuts,
} from './use-approval-shortcuts'

type ApprovalAnswer = z.infer<typeof ApprovalAnswerSchema>

interface ApprovalCardProps {
  approval: PendingApproval
  sessionTitle: string | null
  /** The agent whose command this is, and its workspace; null for the person's own. */
  agent?: { name: string; version: string | null; workspace: string } | null
  isFirst: boolean
  inline?: boolean
}

/** Every approval surface shows this one card: a command's, or a running command's network question. */
export function ApprovalCard(props: ApprovalCardProps) {
  const { approval } = props
  if (approval.network)
    return <NetworkApprovalCard {...props} approval={{ ...approval, network: approval.network }} />
  return <CommandApprovalCard {...props} />
}

/**
 * One command waiting for the user: what, where, in which shell and mode, why, and the three
 * answers. The same card sits on the Approvals screen (the queue across sessions) and inline in
 * its call's place in the session's history (`inline`), where it takes the focus when it appears.
 */
function CommandApprovalCard({
  approval,
  sessionTitle,
  agent = null,
  isFirst,
  inline = false,
}: ApprovalCardProps) {
  const client = useClient()
  const { forget, announce } = usePendingApprovals()
  const settings = useSettings()
  const card = useRef<HTMLElement>(null)
  const [open, setOpen] = useState<'always_allow' | 'deny' | null>(null)
  const [busy, setBusy] = useState(false)
  const [errors, setErrors] = useState<{ rule?: string; form?: string }>({})

  const answer = (value: ApprovalAnswer) => {
    setBusy(true)
    setErrors({})
    // Chosen now: the call's own update may remove an inline card before this answer returns.
    const here = card.current
    const scope = here?.closest<HTMLElement>(`[${APPROVAL_SCOPE_ATTRIBUTE}]`) ?? null
    const successor = nextApprovalCard(here)
    client.request('approvals.answer', { id: approval.id, answer: value }).then(
      ({ alsoAnswered }) => {
        if (value.kind === 'always_allow')
          announce(savedRuleNotice(value.rule, value.scope, alsoAnswered ?? 0))
        // Hand the focus on, unless the user has already moved it elsewhere. The successor may have
        // been answered too (by the rule just saved): then the screen's first card, or its command box.
        const active = document.activeElement
        if (!active || active === document.body || here?.contains(active)) {
          const target = successor?.isConnected
            ? successor
            : ([...(scope?.querySelectorAll<HTMLElement>(`[${APPROVAL_CARD_ATTRIBUTE}]`) ?? [])].find(
                (other) => other !== here,
              ) ?? scope?.querySelector<HTMLElement>(`[${COMMAND_BOX_ATTRIBUTE}]`))
          target?.focus()
        }
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

  // A card that appears where the person is looking takes the focus, so 1/2/3 work at once (the
  // 400 ms guard still applies), unless they are typing something else.
  useEffect(() => {
    if (!inline || !isFirst) return
    const active = document.activeElement
    const box = active instanceof HTMLTextAreaElement && active.hasAttribute(COMMAND_BOX_ATTRIBUTE)
    const idle = !active || active === document.body || (box && active.value === '')
    const inHistory = Boolean(active?.closest('[data-call-id]'))
    if (idle || inHistory) card.current?.focus()
  }, [inline, isFirst])

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
    ...(inline ? [] : ([['Session', sessionTitle ?? 'a closed session']] as Array<[string, string]>)),
    ['Requested', formatTime(approval.requestedAt)],
  ]
  if (approval.expiresAt) facts.push(['Denied automatically at', formatTime(approval.expiresAt)])
  const Card = inline ? 'section' : 'article'

  return (
    <Card
      ref={card}
      className={`panel approval-card${inline ? ' approval-inline' : ''}`}
      aria-label={inline ? 'Approval needed' : commandName(approval.command)}
      // The keys act only on the card with the focus, so keyboard users must be able to reach the card itself.
      tabIndex={0}
      aria-keyshortcuts="1 2 3"
      data-keys-armed={keysArmed ? '' : undefined}
      {...{ [APPROVAL_CARD_ATTRIBUTE]: '' }}
    >
      {/* Inline, the call card above already shows the command. */}
      {!inline && <CommandText command={approval.command} className="approval-command" urgent />}
      {approval.description && <p className="muted">{approval.description}</p>}
      <dl className="inline-facts">
        {facts.map(([label, value]) => (
          <div key={label} className="fact">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <ApprovalWhy why={approval.why} command={approval.command} />
      <ApprovalTerminalLine terminal={approval.terminal} />
      <ApprovalSandboxLine
        sandbox={approval.sandbox}
        busy={busy}
        onRunUnsandboxed={() => answer({ kind: 'allow_once', unsandboxed: true })}
      />
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
    </Card>
  )
}

const SCOPE_WORDS: Record<string, string> = {
  session: 'this session',
  local: 'this workspace, on this machine',
  workspace: "the repository's .shellgate/settings.json",
  user: 'all workspaces',
}

function savedRuleNotice(rule: string, scope: string, alsoAnswered: number): string {
  const saved = `Saved the rule ${rule} for ${SCOPE_WORDS[scope] ?? scope}.`
  if (alsoAnswered === 0) return `${saved} No other waiting command matched it.`
  return `${saved} It also allowed ${alsoAnswered} other waiting ${alsoAnswered === 1 ? 'command' : 'commands'}.`
}
