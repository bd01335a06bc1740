import { RULE_SCOPES, type RuleScope } from '../settings-state/rule-scopes'

/**
 * "Remember for": where a rule the person saves from a card is kept. One radio group per form,
 * so its `name` must be unique on the page (several cards can be open at once).
 */
export function ScopeChoice({
  name,
  scope,
  onChange,
  options = RULE_SCOPES,
  hints = true,
}: {
  name: string
  scope: RuleScope
  onChange: (scope: RuleScope) => void
  options?: typeof RULE_SCOPES
  hints?: boolean
}) {
  return (
    <fieldset className="scope-choice">
      <legend>Remember for</legend>
      {options.map((option) => (
        <label key={option.scope} className="checkbox">
          <input
            type="radio"
            name={name}
            value={option.scope}
            checked={scope === option.scope}
            onChange={() => onChange(option.scope)}
          />
          {option.label}
          {hints && option.hint && <span className="field-hint">({option.hint})</span>}
        </label>
      ))}
    </fieldset>
  )
}
