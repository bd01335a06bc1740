import { type FormEvent, useState } from 'react'
import type { RuleOffer } from '../../shared/ipc/domains/rules'
import { useEvent } from '../events/use-event'
import { Field } from '../forms/Field'
import { FormError } from '../forms/FormError'
import { errorMessage, fieldErrorsFromRpc } from '../forms/field-errors'
import { useClient } from '../rpc'
import type { RuleScope } from '../settings-state/rule-scopes'
import { ScopeChoice } from './ScopeChoice'
import { useSettings } from '../settings-state/SettingsProvider'
import { workspaceName } from '../session/conversation-groups'
import { useRequest } from '../use-request'
import { usePendingApprovals } from './PendingApprovalsProvider'

/**
 * Fewer prompts, learned from the person (issue 22.8): after they allowed the same command shape
 * several times and never denied it, the desk offers the rule, to edit, scope and save, or dismiss.
 */
export function RuleOffers() {
  const offers = useRequest('rules.offers', {})
  useEvent('rules.offered', () => offers.reload())
  // Not there yet, or not built by this core: the inbox says nothing rather than an error.
  if (!offers.data || offers.data.length === 0) return null
  return (
    <section aria-label="Rules you could save">
      {offers.data.map((offer) => (
        <OfferCard key={offer.id} offer={offer} onDone={offers.reload} />
      ))}
    </section>
  )
}

function OfferCard({ offer, onDone }: { offer: RuleOffer; onDone: () => void }) {
  const client = useClient()
  const { announce } = usePendingApprovals()
  const settings = useSettings()
  const [rule, setRule] = useState(offer.rule)
  const [scope, setScope] = useState<RuleScope>(offer.scope)
  const [busy, setBusy] = useState(false)
  const [errors, setErrors] = useState<{ rule?: string; form?: string }>({})
  const save = (event: FormEvent) => {
    event.preventDefault()
    if (rule.trim() === '') {
      setErrors({ rule: 'A rule cannot be empty.' })
      return
    }
    setBusy(true)
    setErrors({})
    client.request('rules.acceptOffer', { id: offer.id, rule: rule.trim(), scope }).then(
      (saved) => {
        announce(
          `Saved the rule ${saved.rule}.${saved.alsoAnswered > 0 ? ` It also allowed ${saved.alsoAnswered} waiting ${saved.alsoAnswered === 1 ? 'command' : 'commands'}.` : ''}`,
        )
        settings.reload()
        onDone()
      },
      (failure: unknown) => {
        setBusy(false)
        setErrors(fieldErrorsFromRpc(failure, { rule: 'rule' }))
      },
    )
  }
  const dismiss = () => {
    setBusy(true)
    client.request('rules.dismissOffer', { id: offer.id }).then(onDone, (failure: unknown) => {
      setBusy(false)
      setErrors({ form: errorMessage(failure) })
    })
  }
  return (
    <form
      className="panel rule-offer"
      aria-label={`Save a rule for ${offer.rule}?`}
      onSubmit={save}
      noValidate
    >
      <p>
        You allowed commands like <code>{offer.examples[0] ?? offer.rule}</code> {offer.allowedCount} times in{' '}
        <code title={offer.workspace}>{workspaceName(offer.workspace)}</code> and never denied one. Save a
        rule so they run without asking?
      </p>
      {offer.examples.length > 1 && (
        <ul className="muted" aria-label="Commands it would have allowed">
          {offer.examples.map((example) => (
            <li key={example}>
              <code>{example}</code>
            </li>
          ))}
        </ul>
      )}
      <Field label="Rule" error={errors.rule} hint="An exact command or prefix:*; edit it before saving.">
        {(control) => (
          <input
            {...control}
            className="mono"
            value={rule}
            onChange={(event) => setRule(event.target.value)}
          />
        )}
      </Field>
      <ScopeChoice name={`offer-scope-${offer.id}`} scope={scope} onChange={setScope} />
      <div className="form-actions">
        <button type="button" onClick={dismiss} disabled={busy}>
          Don't offer again
        </button>
        <button type="submit" className="primary" disabled={busy}>
          Save rule
        </button>
      </div>
      <FormError message={errors.form} />
    </form>
  )
}
