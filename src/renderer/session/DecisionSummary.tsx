import type { BashCall, BashCallStatus } from '../../shared/ipc/domains/bash'
import { PlainText } from '../format/PlainText'

/** After an `ask`, these states mean a person (or a rule they saved) let it run. */
const RAN: ReadonlySet<BashCallStatus> = new Set([
  'running',
  'completed',
  'failed',
  'timed_out',
  'cancelled',
  'backgrounded',
  'run_by_agent',
])

/**
 * What happened after asking, as one sentence; null when the decision's own reason says it all.
 * Not "you denied it": a timeout or a closed session also denies a pending approval.
 */
function afterAsking(decision: NonNullable<BashCall['decision']>, status: BashCallStatus): string | null {
  if (decision.outcome !== 'ask') return null
  // After an ask rule, `rule` names that ask rule, not how the person answered.
  if (RAN.has(status) && decision.decidedBy === 'rule.ask') return 'Then you allowed it.'
  if (RAN.has(status))
    return decision.rule ? `Then allowed by your rule \`${decision.rule}\`.` : 'Then you allowed it once.'
  if (status === 'denied') return 'Then it was denied.'
  return null
}

/**
 * Who or what let the call run (or stopped it), in plain sentences: the decision's reason (already
 * naming the rule and where it lives) and, after an approval, how it was answered. Each sentence
 * once; never an internal id (no decision basis, no `session:<id>` file).
 */
export function DecisionSummary({
  decision,
  status,
}: {
  decision: BashCall['decision']
  status: BashCallStatus
}) {
  if (!decision) return <span className="muted">No decision yet.</span>
  const sentences = [decision.reason, afterAsking(decision, status)].filter(
    (sentence, index, all): sentence is string => Boolean(sentence) && all.indexOf(sentence) === index,
  )
  return (
    <span>
      <PlainText text={sentences.join(' ')} />
    </span>
  )
}
