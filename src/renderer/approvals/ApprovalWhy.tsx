import type { PendingApproval } from '../../shared/ipc/domains/approvals'
import { PlainText } from '../format/PlainText'
import { revealInvisible } from '../../shared/reveal-invisible'

/** The card's first line: why it asks, in the decision's plain words ("Needs your approval: rm deletes files."). */
export function ApprovalReason({ reason }: { reason: string }) {
  return (
    <section className="approval-why" aria-label="Why approval is needed">
      <p className="approval-reason">
        <PlainText text={reason} />
      </p>
    </section>
  )
}

/**
 * What backs the first line up: each part that is not read-only when there are several (one part
 * is the first line already), a rule that almost matched, and the rules that would allow it.
 */
export function ApprovalDetails({ why }: { why: PendingApproval['why'] }) {
  // The first line names up to two parts' reasons already; the list is for the rest ("and 3 more").
  const listed = why.nonReadOnly.length > 2
  if (!listed && !why.nearMiss && why.suggestedRules.length === 0) return null
  return (
    <section className="approval-details" aria-label="Approval details">
      {listed && (
        <>
          <h3 className="small-heading">Not read-only</h3>
          <ul>
            {why.nonReadOnly.map((part) => (
              <li key={`${part.text}\u0000${part.reason}`}>
                <code>{revealInvisible(part.text).text}</code>: {part.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {why.nearMiss && (
        <p>
          Almost matched rule <code>{revealInvisible(why.nearMiss.rule).text}</code>:{' '}
          {why.nearMiss.explanation}
        </p>
      )}
      {why.suggestedRules.length > 0 && (
        <p className="muted">
          Suggested {why.suggestedRules.length === 1 ? 'rule' : 'rules'}:{' '}
          {why.suggestedRules.map((rule, index) => (
            <span key={rule}>
              {index > 0 && ', '}
              <code>{revealInvisible(rule).text}</code>
            </span>
          ))}
        </p>
      )}
    </section>
  )
}
