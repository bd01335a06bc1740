import { useState } from 'react'
import type { PendingApproval } from '../../shared/ipc/domains/approvals'
import { FormError } from '../forms/FormError'
import { errorMessage } from '../forms/field-errors'
import { useClient } from '../rpc'
import { usePendingApprovals } from './PendingApprovalsProvider'

/**
 * One agent's flood, folded under its oldest card: how many more, from whom, and the two ways on:
 * show them all, or deny them all at once (after saying how many, since it answers cards unseen).
 */
export function FoldedFlood({
  who,
  hidden,
  onUnfold,
}: {
  who: string
  hidden: PendingApproval[]
  onUnfold: () => void
}) {
  const client = useClient()
  const { forget } = usePendingApprovals()
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  const denyAll = () => {
    setBusy(true)
    setConfirming(false)
    Promise.allSettled(
      hidden.map((approval) =>
        client
          .request('approvals.answer', { id: approval.id, answer: { kind: 'deny' } })
          .then(() => forget(approval.id)),
      ),
    ).then((results) => {
      setBusy(false)
      const failed = results.filter((result) => result.status === 'rejected')
      if (failed.length > 0)
        setError(
          `${failed.length} could not be denied: ${errorMessage((failed[0] as PromiseRejectedResult).reason)}`,
        )
    })
  }
  const count = `${hidden.length} more ${hidden.length === 1 ? 'command' : 'commands'}`
  return (
    <section className="panel folded-flood" aria-label={`${count} from ${who}`} data-testid="folded-flood">
      <p>
        <strong>{count}</strong> from {who} wait behind the card above.
      </p>
      <div className="form-actions">
        <button type="button" onClick={onUnfold} disabled={busy}>
          Show all {hidden.length}
        </button>
        <button type="button" className="danger" onClick={() => setConfirming(true)} disabled={busy}>
          Deny these {hidden.length}…
        </button>
      </div>
      {confirming && (
        <fieldset className="close-confirm" aria-label={`Deny ${count}?`}>
          <p>
            Deny the {count} from {who} without reading each? The card above stays.
          </p>
          <button type="button" className="danger" onClick={denyAll}>
            Deny {hidden.length}
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </fieldset>
      )}
      <FormError message={error} />
    </section>
  )
}
