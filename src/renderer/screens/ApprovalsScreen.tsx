import { useLayoutEffect } from 'react'
import { usePendingApprovals } from '../approvals/PendingApprovalsProvider'
import { APPROVAL_CARD_ATTRIBUTE } from '../approvals/use-approval-shortcuts'
import { ApprovalCard } from '../approvals/ApprovalCard'
import { EmptyState } from '../components/EmptyState'
import type { Session } from '../../shared/ipc/domains/sessions'
import { useSessions } from '../session/SessionsProvider'

export function ApprovalsScreen() {
  const { pending, error } = usePendingApprovals()
  const { sessions } = useSessions()
  const count = pending?.length ?? 0

  // An answered card takes the focus with it; hand it to the next card (not to a button: Enter must
  // never approve a command the user has not looked at), so keyboard users keep their place. In
  // the same commit as the card's removal (a layout effect), so no frame, key press or check
  // finds the focus on the page's body in between.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the number of cards changes.
  useLayoutEffect(() => {
    if (document.activeElement !== document.body) return
    document.querySelector<HTMLElement>(`[${APPROVAL_CARD_ATTRIBUTE}]`)?.focus()
  }, [count])
  return (
    <section className="screen" aria-labelledby="approvals-title" data-approval-scope="">
      <h1 id="approvals-title">Approvals</h1>
      {error && <p role="alert">Could not load pending approvals: {error}</p>}
      {pending === null && !error && <p className="muted">Loading…</p>}
      {pending?.length === 0 && (
        <EmptyState title="Nothing is waiting">
          Commands that are not read-only wait here for you to allow or deny them. Nothing is waiting for
          approval.
        </EmptyState>
      )}
      {pending && pending.length > 0 && (
        <p className="muted">
          Keys: <kbd>1</kbd> Allow once, <kbd>2</kbd> Always allow, <kbd>3</kbd> Deny — on the card with the
          focus (Tab to a card first).
        </p>
      )}
      {pending?.map((approval, index) => (
        <ApprovalCard
          key={approval.id}
          approval={approval}
          isFirst={index === 0}
          sessionTitle={sessions?.find((s) => s.id === approval.sessionId)?.title ?? null}
          agent={agentOf(sessions?.find((s) => s.id === approval.sessionId))}
        />
      ))}
    </section>
  )
}

function agentOf(
  session: Session | undefined,
): { name: string; version: string | null; workspace: string } | null {
  return session?.agent ? { ...session.agent, workspace: session.workspace } : null
}
