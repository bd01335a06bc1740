import type { BashCall, BashCallStatus } from '../../shared/ipc/domains/bash'

const OUTCOME_LABEL = { allow: 'Allowed', ask: 'Asked', deny: 'Denied' } as const

/** After an `ask`, these states mean a person answered: the call ran, or it was refused. */
const RAN: ReadonlySet<BashCallStatus> = new Set([
  'running',
  'completed',
  'failed',
  'timed_out',
  'cancelled',
  'backgrounded',
])

function outcomeText(decision: NonNullable<BashCall['decision']>, status: BashCallStatus): string {
  if (decision.outcome !== 'ask') return `${OUTCOME_LABEL[decision.outcome]} by`
  if (RAN.has(status)) return 'Allowed by you after asking, because of'
  // Not "by you": a timeout or a closed session also denies a pending approval.
  if (status === 'denied') return 'Denied after asking, because of'
  return 'Asking you, because of'
}

/** Who or what let the call run (or stopped it): read-only analysis, a rule and its file, the user, the mode. */
export function DecisionSummary({
  decision,
  status,
}: {
  decision: BashCall['decision']
  status: BashCallStatus
}) {
  if (!decision) return <span className="muted">no decision yet</span>
  return (
    <span>
      {outcomeText(decision, status)} <strong>{decision.decidedBy}</strong>
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
