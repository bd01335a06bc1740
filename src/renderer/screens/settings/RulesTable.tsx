import { useState } from 'react'
import type { z } from 'zod'
import type { ScopedRuleSchema } from '../../../shared/ipc/domains/settings'
import { FormError } from '../../forms/FormError'
import { revealInvisible } from '../../../shared/reveal-invisible'
import { errorMessage } from '../../forms/field-errors'
import { type RuleDraft, RuleEditor } from './RuleEditor'

type ScopedRule = z.infer<typeof ScopedRuleSchema>

function ruleKey(rule: ScopedRule): string {
  return `${rule.scope}\u0000${rule.list}\u0000${rule.rule}\u0000${rule.source}`
}

/** Rules in effect with their list, scope and the file they come from; edit and delete per row. */
export function RulesTable({
  rules,
  sessionAvailable,
  onRemove,
  onReplace,
}: {
  rules: ScopedRule[]
  sessionAvailable: boolean
  onRemove: (rule: RuleDraft) => Promise<void>
  onReplace: (old: RuleDraft, next: RuleDraft) => Promise<void>
}) {
  const [editing, setEditing] = useState<string | null>(null)
  const [error, setError] = useState<string>()
  if (rules.length === 0)
    return <p className="muted">No rules yet: only read-only commands run without asking.</p>
  return (
    <>
      <FormError message={error} />
      <table className="data-table" aria-label="Rules">
        <thead>
          <tr>
            <th scope="col">List</th>
            <th scope="col">Rule</th>
            <th scope="col">Scope</th>
            <th scope="col">Source</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rules.map((rule) => {
            const key = ruleKey(rule)
            const draft: RuleDraft = { list: rule.list, rule: rule.rule, scope: rule.scope }
            if (editing === key)
              return (
                <tr key={key}>
                  <td colSpan={5}>
                    <RuleEditor
                      label={`Edit rule ${rule.rule}`}
                      initial={draft}
                      submitLabel="Save rule"
                      sessionAvailable={sessionAvailable}
                      onSubmit={async (next) => {
                        await onReplace(draft, next)
                        setEditing(null)
                      }}
                      onCancel={() => setEditing(null)}
                    />
                  </td>
                </tr>
              )
            return (
              <tr key={key} data-list={rule.list} data-scope={rule.scope}>
                <td data-field="list">{rule.list}</td>
                <td>
                  <span data-field="rule">
                    <code>{revealInvisible(rule.rule).text}</code>
                    {!rule.trusted && <span className="tag-untrusted"> (ignored until trusted)</span>}
                  </span>
                  {rule.broad && <div className="tag-untrusted">Careful: {rule.broad}.</div>}
                </td>
                <td data-field="scope">{rule.scope}</td>
                <td data-field="source">
                  <code>{rule.source}</code>
                </td>
                <td>
                  <div className="row-actions">
                    <button
                      type="button"
                      aria-label={`Edit rule ${rule.rule}`}
                      onClick={() => setEditing(key)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="danger"
                      aria-label={`Delete rule ${rule.rule}`}
                      onClick={() => {
                        setError(undefined)
                        onRemove(draft).catch((failure: unknown) => setError(errorMessage(failure)))
                      }}
                    >
                      Delete
                    </button>
                  </div>
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </>
  )
}
