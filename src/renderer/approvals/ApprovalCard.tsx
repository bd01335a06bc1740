import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { PendingApproval } from '../../shared/ipc/domains/approvals'
import { CommandText } from '../commands/CommandText'
import { commandName } from '../format/command-name'
import { formatTime } from '../format/measures'
import { FormError } from '../forms/FormError'
import { AlwaysAllowForm } from './AlwaysAllowForm'
import type { ApprovalAgent } from './approval-agent'
import { ApprovalTerminalLine } from './ApprovalTerminalLine'
import { APPROVAL_ACTIONS, type ApprovalActionKind } from './approval-actions'
import { useApprovalKeys } from './ApprovalKeys'
import { ApprovalKeysLine } from './ApprovalKeysLine'
import { ApprovalSandboxLine } from './ApprovalSandboxLine'
import { ApprovalDetails, ApprovalReason } from './ApprovalWhy'
import { DenyForm } from './DenyForm'
import { NetworkApprovalCard } from './NetworkApprovalCard'
import { isTypingIn } from './typing-focus'
import { useApprovalAnswer } from './use-approval-answer'

/** Marks a card, so tests and focus hand-offs can find the cards of a screen. */
export const APPROVAL_CARD_ATTRIBUTE = 'data-approval-card'

interface ApprovalCardProps {
  approval: PendingApproval
  sessionTitle: string | null
  /** The agent whose command this is, and its workspace; null for the person's own. */
  agent?: ApprovalAgent | null
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
 * One command waiting for the person: first why (in plain words), then what, where, in which shell
 * and mode, and the four answers. The same card sits in the inbox (every agent's, oldest first) and
 * inline in its call's place in a conversation (`inline`: the call card above already shows the
 * command, its description and the reason, so they are not repeated).
 */
function CommandApprovalCard({ approval, sessionTitle, agent = null, inline = false }: ApprovalCardProps) {
  const card = useRef<HTMLElement>(null)
  const keys = useApprovalKeys()
  const [open, setOpen] = useState<'always_allow' | 'deny_with_message' | null>(null)
  const { answer, busy, errors } = useApprovalAnswer(approval)
  const isTarget = keys?.targetId === approval.id

  const act = (kind: ApprovalActionKind) => {
    if (busy) return
    if (kind === 'allow_once') answer({ kind: 'allow_once' })
    else if (kind === 'deny') answer({ kind: 'deny' })
    else setOpen(kind)
  }
  const latestAct = useRef(act)
  latestAct.current = act
  const register = keys?.register
  useLayoutEffect(
    () =>
      register?.(approval.id, {
        act: (kind) => latestAct.current(kind),
        element: () => card.current,
      }),
    [register, approval.id],
  )
  // The card the keys answer is in view, so nobody answers a command they cannot see; the view
  // stays put while the person types, and the focus never moves.
  useEffect(() => {
    if (isTarget && !isTypingIn(document.activeElement)) card.current?.scrollIntoView({ block: 'nearest' })
  }, [isTarget])
  const closeForm = () => {
    setOpen(null)
    card.current?.focus()
  }

  const facts: Array<[string, string]> = [
    ...(agent
      ? ([
          ['Agent', agent.version ? `${agent.name} ${agent.version}` : agent.name],
          ['Workspace', agent.workspace],
        ] as Array<[string, string]>)
      : []),
    // An agent's command usually runs at its workspace's root: said once.
    ...(agent?.workspace === approval.cwd
      ? []
      : ([['Working directory', approval.cwd]] as Array<[string, string]>)),
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
      className={`panel approval-card${inline ? ' approval-inline' : ''}${isTarget ? ' key-target' : ''}`}
      aria-label={inline ? 'Approval needed' : commandName(approval.command)}
      tabIndex={0}
      aria-keyshortcuts={isTarget ? '1 2 3 4' : undefined}
      data-key-target={isTarget ? '' : undefined}
      data-keys-armed={isTarget && keys?.armed ? '' : undefined}
      {...{ [APPROVAL_CARD_ATTRIBUTE]: '' }}
      onFocus={() => keys?.pick(approval.id)}
      onMouseDown={() => keys?.pick(approval.id)}
    >
      {!inline && <ApprovalReason reason={approval.why.reason} />}
      {!inline && <CommandText command={approval.command} className="approval-command" urgent />}
      {!inline && approval.description && <p className="muted">{approval.description}</p>}
      <dl className="inline-facts">
        {facts.map(([label, value]) => (
          <div key={label} className="fact">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <ApprovalDetails why={approval.why} />
      <ApprovalTerminalLine terminal={approval.terminal} />
      <ApprovalSandboxLine
        sandbox={approval.sandbox}
        busy={busy}
        onRunUnsandboxed={() => answer({ kind: 'allow_once', unsandboxed: true })}
      />
      {keys && <ApprovalKeysLine keys={keys} isTarget={isTarget} />}
      <div className="approval-actions">
        {APPROVAL_ACTIONS.map((action) => (
          <button
            key={action.kind}
            type="button"
            className={
              action.kind === 'deny' || action.kind === 'deny_with_message'
                ? 'danger'
                : action.kind === 'allow_once'
                  ? 'primary'
                  : undefined
            }
            aria-label={action.label}
            aria-keyshortcuts={action.key}
            aria-expanded={
              action.kind === 'always_allow' || action.kind === 'deny_with_message'
                ? open === action.kind
                : undefined
            }
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
          onCancel={closeForm}
        />
      )}
      {open === 'deny_with_message' && (
        <DenyForm
          error={errors.form}
          busy={busy}
          onConfirm={(message) =>
            answer(message === undefined ? { kind: 'deny' } : { kind: 'deny', message })
          }
          onCancel={closeForm}
        />
      )}
      {open === null && <FormError message={errors.form ?? errors.rule} />}
    </Card>
  )
}
