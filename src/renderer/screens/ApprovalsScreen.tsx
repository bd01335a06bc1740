import { usePendingApprovals } from '../approvals/PendingApprovalsProvider'
import { ApprovalCard } from '../approvals/ApprovalCard'
import { EmptyState } from '../components/EmptyState'
import { useSessions } from '../session/SessionsProvider'

export function ApprovalsScreen() {
  const { pending, error } = usePendingApprovals()
  const { sessions } = useSessions()
  return (
    <section className="screen" aria-labelledby="approvals-title">
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
          focus, or the first card.
        </p>
      )}
      {pending?.map((approval, index) => (
        <ApprovalCard
          key={approval.id}
          approval={approval}
          isFirst={index === 0}
          sessionTitle={sessions?.find((s) => s.id === approval.sessionId)?.title ?? null}
        />
      ))}
    </section>
  )
}
