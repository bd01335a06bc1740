import type { PendingApproval } from '../../shared/ipc/domains/approvals'

/** Why this command was not allowed on its own: the parts that are not read-only, a rule that almost matched. */
export function ApprovalWhy({ why }: { why: PendingApproval['why'] }) {
  return (
    <section className="approval-why" aria-label="Why approval is needed">
      <p>{why.reason}</p>
      {why.nonReadOnly.length > 0 && (
        <>
          <h3 className="small-heading">Not read-only</h3>
          <ul>
            {why.nonReadOnly.map((part) => (
              <li key={`${part.text}\u0000${part.reason}`}>
                <code>{part.text}</code>: {part.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {why.nearMiss && (
        <p>
          Almost matched rule <code>{why.nearMiss.rule}</code>: {why.nearMiss.explanation}
        </p>
      )}
      {why.suggestedRules.length > 0 && (
        <p>
          Suggested {why.suggestedRules.length === 1 ? 'rule' : 'rules'}:{' '}
          {why.suggestedRules.map((rule, index) => (
            <span key={rule}>
              {index > 0 && ', '}
              <code>{rule}</code>
            </span>
          ))}
        </p>
      )}
    </section>
  )
}
