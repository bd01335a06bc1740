import type { BashCall } from '../../shared/ipc/domains/bash'
import { ApprovalCard } from '../approvals/ApprovalCard'
import { usePendingApprovals } from '../approvals/PendingApprovalsProvider'

/**
 * The approval card for a waiting call, in the call's own place in the history: answered where
 * the command is, with the same actions and keys as in the inbox.
 */
export function InlineApproval({ call }: { call: BashCall }) {
  const { pending } = usePendingApprovals()
  const approval = pendingApprovalOf(pending, call)
  if (!approval)
    return (
      <p className="call-notice">
        Waiting for approval. <a href="#/approvals">Open Approvals</a>
      </p>
    )
  return <ApprovalCard approval={approval} sessionTitle={null} inline />
}

/** Older cores sent no callId: then the oldest approval of this session for the same command. */
export function pendingApprovalOf<
  T extends { sessionId: string; callId?: string | undefined; command: string },
>(pending: readonly T[] | null, call: Pick<BashCall, 'sessionId' | 'id' | 'command'>): T | undefined {
  const mine = pending?.filter((approval) => approval.sessionId === call.sessionId) ?? []
  return (
    mine.find((candidate) => candidate.callId === call.id) ??
    mine.find((candidate) => candidate.callId === undefined && candidate.command === call.command)
  )
}
