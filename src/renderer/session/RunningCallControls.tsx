import { useState } from 'react'
import type { BashCall } from '../../shared/ipc/domains/bash'
import { FormError } from '../forms/FormError'
import { errorMessage } from '../forms/field-errors'
import { commandStart } from '../format/command-name'
import { useClient } from '../rpc'

export type RunningCallAction = 'stop' | 'background'

/** Esc stops and Ctrl+B moves to the background, on the card with the focus (as in Claude Code). */
export function runningCallActionForKey(event: {
  key: string
  ctrlKey: boolean
  metaKey: boolean
  altKey: boolean
  shiftKey: boolean
}): RunningCallAction | null {
  if (event.key === 'Escape' && !event.ctrlKey && !event.metaKey && !event.altKey) return 'stop'
  if ((event.key === 'b' || event.key === 'B') && event.ctrlKey && !event.altKey && !event.shiftKey)
    return 'background'
  return null
}

/**
 * Stop (kills the whole tree, as for tasks) and "Move to background" (commits the call to a task
 * at once, as its deadline would) for a running foreground call.
 */
export function useRunningCallActions(call: Pick<BashCall, 'sessionId' | 'id'>) {
  const client = useClient()
  const [busy, setBusy] = useState<RunningCallAction | null>(null)
  const [error, setError] = useState<string>()
  const act = (action: RunningCallAction) => {
    if (busy) return
    setBusy(action)
    setError(undefined)
    const method = action === 'stop' ? 'bash.cancel' : 'bash.background'
    client.request(method, { sessionId: call.sessionId, callId: call.id }).then(
      () => setBusy(null),
      (failure: unknown) => {
        setBusy(null)
        setError(errorMessage(failure))
      },
    )
  }
  return { busy, error, act }
}

export function RunningCallControls({
  call,
  busy,
  error,
  onAct,
}: {
  call: BashCall
  busy: RunningCallAction | null
  error: string | undefined
  onAct: (action: RunningCallAction) => void
}) {
  const start = commandStart(call.command)
  return (
    <div className="running-actions">
      <button
        type="button"
        className="danger"
        aria-label={`Stop ${start}`}
        aria-keyshortcuts="Escape"
        disabled={busy !== null}
        onClick={() => onAct('stop')}
      >
        {busy === 'stop' ? 'Stopping…' : 'Stop'} <span className="kbd">Esc</span>
      </button>
      <button
        type="button"
        aria-label={`Move ${start} to background`}
        aria-keyshortcuts="Control+B"
        disabled={busy !== null}
        onClick={() => onAct('background')}
      >
        {busy === 'background' ? 'Moving…' : 'Move to background'} <span className="kbd">Ctrl+B</span>
      </button>
      <FormError message={error} />
    </div>
  )
}
