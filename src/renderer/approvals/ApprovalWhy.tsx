import type { PendingApproval } from '../../shared/ipc/domains/approvals'
import { PlainText } from '../format/PlainText'
import { revealInvisible } from '../format/reveal-invisible'

/** Why this command was not allowed on its own: the parts that are not read-only, a rule that almost matched. */
export function ApprovalWhy({ why, command }: { why: PendingApproval['why']; command: string }) {
  // One part that is the whole command would show the command a second time: its reason is enough.
  const single = why.nonReadOnly.length === 1 && why.nonReadOnly[0]?.text.trim() === command.trim()
  return (
    <section className="approval-why" aria-label="Why approval is needed">
      <p>
        <PlainText text={why.reason} />
      </p>
      {single && <p className="muted">{why.nonReadOnly[0]?.reason}</p>}
      {!single && why.nonReadOnly.length > 0 && (
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
        <p>
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
