import { useRef, useState } from 'react'
import type { Session } from '../../shared/ipc/domains/sessions'
import { ApprovalCard } from '../approvals/ApprovalCard'
import type { ApprovalAgent } from '../approvals/approval-agent'
import { ApprovalKeysScope } from '../approvals/ApprovalKeys'
import { FoldedFlood } from '../approvals/FoldedFlood'
import { foldFloods } from '../approvals/fold-floods'
import { JUST_ALLOWED_ID, JustAllowed } from '../approvals/JustAllowed'
import { usePendingApprovals } from '../approvals/PendingApprovalsProvider'
import { RuleOffers } from '../approvals/RuleOffers'
import { EmptyState } from '../components/EmptyState'
import { EnableNotificationsButton } from '../notifications/NotificationsControl'
import { conversationWho } from '../session/conversation-groups'
import { useSessions } from '../session/SessionsProvider'

/**
 * The inbox: every pending approval, from every agent and the person, oldest first. 1–4 answer
 * the oldest (or the card the person picked) wherever the focus is, except in a text field.
 */
export function ApprovalsScreen() {
  const { pending, error } = usePendingApprovals()
  const { sessions } = useSessions()
  const heading = useRef<HTMLHeadingElement>(null)
  const [unfolded, setUnfolded] = useState<ReadonlySet<string>>(new Set())
  const items = foldFloods(pending ?? [], unfolded)
  // The keys answer only what is shown: a folded card is never the oldest one in view.
  const ids = items.flatMap((item) => (item.kind === 'card' ? [item.approval.id] : []))
  return (
    <ApprovalKeysScope
      orderedIds={ids}
      fallbackFocus={() => document.getElementById(JUST_ALLOWED_ID) ?? heading.current}
    >
      <section className="screen" aria-labelledby="approvals-title">
        <h1 id="approvals-title" ref={heading} tabIndex={-1}>
          Approvals
        </h1>
        <EnableNotificationsButton />
        <JustAllowed />
        <RuleOffers />
        {error && <p role="alert">Could not load pending approvals: {error}</p>}
        {pending === null && !error && <p className="muted">Loading…</p>}
        {pending?.length === 0 && (
          <EmptyState title="Nothing is waiting">
            Commands that are not read-only wait here, from every agent and from you, for you to allow or deny
            them. Nothing is waiting for approval.
          </EmptyState>
        )}
        {pending && pending.length > 0 && (
          <p className="muted">
            Oldest first. <kbd>1</kbd> Allow once, <kbd>2</kbd> Always allow, <kbd>3</kbd> Deny, <kbd>4</kbd>{' '}
            Deny with a message: on the oldest card, or the one you click.
          </p>
        )}
        {items.map((item) => {
          if (item.kind === 'folded') {
            const session = sessions?.find((s) => s.id === item.sessionId)
            return (
              <FoldedFlood
                key={`folded-${item.sessionId}`}
                who={session ? `${conversationWho(session)} (${session.title})` : 'a closed conversation'}
                hidden={item.hidden}
                onUnfold={() => setUnfolded((set) => new Set(set).add(item.sessionId))}
              />
            )
          }
          const { approval } = item
          const session = sessions?.find((s) => s.id === approval.sessionId)
          return (
            <ApprovalCard
              key={approval.id}
              approval={approval}
              sessionTitle={session?.title ?? null}
              agent={agentOf(session)}
            />
          )
        })}
      </section>
    </ApprovalKeysScope>
  )
}

function agentOf(session: Session | undefined): ApprovalAgent | null {
  return session?.agent ? { ...session.agent, workspace: session.workspace } : null
}
