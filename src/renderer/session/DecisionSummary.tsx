import type { BashCall } from '../../shared/ipc/domains/bash'

const OUTCOME_LABEL = { allow: 'Allowed', ask: 'Asked', deny: 'Denied' } as const

/** Who or what let the call run (or stopped it): read-only analysis, a rule and its file, the user, the mode. */
export function DecisionSummary({ decision }: { decision: BashCall['decision'] }) {
  if (!decision) return <span className="muted">no decision yet</span>
  return (
    <span>
      {OUTCOME_LABEL[decision.outcome]} by <strong>{decision.decidedBy}</strong>
      {decision.rule && (
        <>
          {' '}
          (rule <code>{decision.rule}</code>
          {decision.ruleFile && (
            <>
              {' '}
              in <code>{decision.ruleFile}</code>
            </>
          )}
          )
        </>
      )}
      {decision.reason && <>: {decision.reason}</>}
    </span>
  )
}
