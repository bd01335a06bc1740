import { usePendingApprovals } from './PendingApprovalsProvider'

/** Says what the last answer did beyond its card ("It also allowed 2 other waiting commands"). */
export function AnswerNotice() {
  const { notice, announce } = usePendingApprovals()
  return (
    <div role="status" aria-label="Approval result">
      {notice && (
        <p className="call-notice answer-notice">
          {notice}{' '}
          <button type="button" className="link-button" onClick={() => announce(null)}>
            Dismiss
          </button>
        </p>
      )}
    </div>
  )
}
