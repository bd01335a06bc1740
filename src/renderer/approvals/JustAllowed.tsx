import { useEffect, useRef } from 'react'
import { CommandText } from '../commands/CommandText'
import { FormError } from '../forms/FormError'
import { CALL_STATUS_LABEL } from '../session/call-status'
import { useLiveCalls } from '../session/LiveCallsProvider'
import { runningCallActionForKey, useRunningCallActions } from '../session/RunningCallControls'
import { usePendingApprovals } from './PendingApprovalsProvider'
import { isTypingIn } from './typing-focus'

export const JUST_ALLOWED_ID = 'just-allowed'

/**
 * The command the person allowed last, wherever the focus went next (to the next card): Esc stops
 * it and Ctrl+B moves it to the background while it runs in the foreground, as on its own card.
 * Keys typed into a text field, or already used by something else, are left alone.
 */
export function JustAllowed() {
  const { allowed, noteAllowed } = usePendingApprovals()
  const { call, running, actions } = useJustAllowedKeys()
  if (!allowed) return null
  const state = !call || call.status === 'waiting_for_approval' ? 'starting' : call.status
  return (
    <section
      id={JUST_ALLOWED_ID}
      className="just-allowed"
      aria-label="Just allowed"
      tabIndex={-1}
      data-status={state}
    >
      <p>
        You allowed <CommandText command={allowed.command} as="code" />:{' '}
        <strong data-field="status">
          {state === 'starting' ? 'starting' : CALL_STATUS_LABEL[state].toLowerCase()}
        </strong>
        {call?.exitCode !== null && call?.exitCode !== undefined && ` (exit ${call.exitCode})`}.
      </p>
      {running && (
        <div className="running-actions">
          <button
            type="button"
            className="danger"
            aria-keyshortcuts="Escape"
            disabled={actions.busy !== null}
            onClick={() => actions.act('stop')}
          >
            {actions.busy === 'stop' ? 'Stopping…' : 'Stop'} <span className="kbd">Esc</span>
          </button>
          <button
            type="button"
            aria-keyshortcuts="Control+B"
            disabled={actions.busy !== null}
            onClick={() => actions.act('background')}
          >
            {actions.busy === 'background' ? 'Moving…' : 'Move to background'}{' '}
            <span className="kbd">Ctrl+B</span>
          </button>
        </div>
      )}
      <FormError message={actions.error} />
      {!running && state !== 'starting' && (
        <button type="button" className="link-button" onClick={() => noteAllowed(null)}>
          Dismiss
        </button>
      )}
    </section>
  )
}

/** Esc and Ctrl+B for the command allowed last, on a screen that shows no strip (a conversation). */
export function useJustAllowedKeys() {
  const { allowed } = usePendingApprovals()
  const live = useLiveCalls()
  const call = allowed
    ? live.bySession.get(allowed.sessionId)?.find((candidate) => candidate.id === allowed.callId)
    : undefined
  const running = call?.status === 'running' && call.taskId === null
  const actions = useRunningCallActions({ sessionId: allowed?.sessionId ?? '', id: allowed?.callId ?? '' })
  const latest = useRef({ running, act: actions.act })
  latest.current = { running, act: actions.act }

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!latest.current.running || event.defaultPrevented || event.repeat) return
      if (isTypingIn(document.activeElement)) return
      const action = runningCallActionForKey(event)
      if (!action) return
      event.preventDefault()
      latest.current.act(action)
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [])
  return { call, running, actions }
}
