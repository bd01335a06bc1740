import { useRef, useState } from 'react'
import type { z } from 'zod'
import type { ApprovalAnswerSchema, PendingApproval } from '../../shared/ipc/domains/approvals'
import { fieldErrorsFromRpc } from '../forms/field-errors'
import { useClient } from '../rpc'
import { useSettings } from '../settings-state/SettingsProvider'
import { useApprovalKeys } from './ApprovalKeys'
import { usePendingApprovals } from './PendingApprovalsProvider'

export type ApprovalAnswer = z.infer<typeof ApprovalAnswerSchema>

const SCOPE_WORDS: Record<string, string> = {
  session: 'this session',
  local: 'this workspace, on this machine',
  workspace: "the repository's .shellgate/settings.json",
  user: 'all workspaces',
}

function savedRuleNotice(rule: string, scope: string, alsoAnswered: number): string {
  const saved = `Saved the rule ${rule} for ${SCOPE_WORDS[scope] ?? scope}.`
  if (alsoAnswered === 0) return `${saved} No other waiting command matched it.`
  return `${saved} It also allowed ${alsoAnswered} other waiting ${alsoAnswered === 1 ? 'command' : 'commands'}.`
}

/**
 * Sends one answer for `approval`, once: busy while it travels, the server's refusal put next to
 * the rule or the form, and on success the card dropped, a saved rule announced, and an allowed
 * command remembered so Esc and Ctrl+B can stop it or move it to the background.
 */
export function useApprovalAnswer(approval: PendingApproval) {
  const client = useClient()
  const { forget, announce, noteAllowed } = usePendingApprovals()
  const settings = useSettings()
  const keys = useApprovalKeys()
  const [busy, setBusy] = useState(false)
  // Read synchronously: a second key press in the same burst must not send a second answer.
  const sending = useRef(false)
  const [errors, setErrors] = useState<{ rule?: string; form?: string }>({})

  const answer = (value: ApprovalAnswer) => {
    if (sending.current) return
    sending.current = true
    setBusy(true)
    setErrors({})
    keys?.answering(approval.id, true)
    client.request('approvals.answer', { id: approval.id, answer: value }).then(
      ({ alsoAnswered }) => {
        if (value.kind === 'always_allow') {
          announce(savedRuleNotice(value.rule, value.scope, alsoAnswered ?? 0))
          settings.reload()
        }
        if (value.kind !== 'deny' && approval.callId)
          noteAllowed({ sessionId: approval.sessionId, callId: approval.callId, command: approval.command })
        keys?.answered()
        forget(approval.id)
      },
      (failure: unknown) => {
        sending.current = false
        keys?.answering(approval.id, false)
        setBusy(false)
        setErrors(fieldErrorsFromRpc(failure, { answer: 'rule', rule: 'rule' }))
      },
    )
  }
  return { answer, busy, errors }
}
