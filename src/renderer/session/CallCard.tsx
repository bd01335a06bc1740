import { memo } from 'react'
import type { BashCall } from '../../shared/ipc/domains/bash'
import { CommandText } from '../commands/CommandText'
import { commandName, commandStart } from '../format/command-name'
import { formatBytes, formatDuration, formatTime } from '../format/measures'
import { useTasks } from '../tasks/TasksProvider'
import { BackgroundNotice } from './BackgroundNotice'
import { InlineApproval } from './InlineApproval'
import { RunningCallControls, runningCallActionForKey, useRunningCallActions } from './RunningCallControls'
import { CallProgressView } from './CallProgressView'
import { CALL_STATUS_LABEL, isLive } from './call-status'
import { DecisionSummary } from './DecisionSummary'
import { FullOutput } from './FullOutput'
import type { CallProgress } from './LiveCallsProvider'

/** How the call reached Shellgate, on its card: a hook call sits in the same timeline as MCP ones. */
const VIA_WORDS = { mcp: 'via MCP', hook: "via the agent's hook", exec: 'via shellgate exec' } as const

/**
 * One Bash call: what ran, how it ended, who allowed it, what the model was told, and the output on
 * demand. Memoised: a progress flush re-renders only the running call, not the whole history.
 */
export const CallCard = memo(function CallCard({
  call,
  progress,
}: {
  call: BashCall
  progress: CallProgress | undefined
}) {
  const label = useCallStatusLabel(call)
  const running = call.status === 'running' && call.taskId === null
  const actions = useRunningCallActions(call)
  return (
    <article
      className="panel call-card"
      aria-label={commandName(call.command)}
      data-status={call.status}
      data-call-id={call.id}
      // Reachable while it runs, so Esc and Ctrl+B act on the card with the focus; focusable from code
      // otherwise, so an answered inline card can hand the focus to its own call.
      tabIndex={running ? 0 : -1}
      aria-keyshortcuts={running ? 'Escape Control+B' : undefined}
      onKeyDown={(event) => {
        if (!running || event.defaultPrevented) return
        const action = runningCallActionForKey(event)
        if (!action) return
        event.preventDefault()
        actions.act(action)
      }}
    >
      <header className="call-header">
        <span className={`status status-${label.status}`} data-field="status">
          {label.text}
        </span>
        {call.via && call.via !== 'person' && (
          <span className="call-via muted" data-field="via">
            {VIA_WORDS[call.via]}
          </span>
        )}
        <CommandText command={call.command} className="call-command" as="code" />
      </header>
      {call.description && <p className="muted">{call.description}</p>}
      <dl className="inline-facts">
        <dt>Started</dt>
        <dd>{formatTime(call.startedAt)}</dd>
        <dt>Exit</dt>
        <dd data-field="exit">{call.exitCode ?? (call.exitSignal ? `signal ${call.exitSignal}` : '—')}</dd>
        <dt>Duration</dt>
        <dd data-field="duration">{call.durationMs === null ? '—' : formatDuration(call.durationMs)}</dd>
        {call.status !== 'running' && (
          <>
            <dt>Output</dt>
            <dd>{formatBytes(call.totalBytes)}</dd>
          </>
        )}
      </dl>
      <p className="call-decision" data-field="decision">
        <DecisionSummary decision={call.decision} status={call.status} />
      </p>
      {call.status === 'waiting_for_approval' && <InlineApproval call={call} />}
      {call.status === 'backgrounded' && call.taskId && (
        <BackgroundNotice taskId={call.taskId} taskStatus={call.taskStatus} />
      )}
      {running && (
        <RunningCallControls call={call} busy={actions.busy} error={actions.error} onAct={actions.act} />
      )}
      {call.status === 'running' && <CallProgressView startedAt={call.startedAt} progress={progress} />}
      {call.content !== '' && (
        <section aria-label="Result shown to the agent">
          <h3 className="small-heading">Result shown to the agent</h3>
          <pre className={`call-content${call.isError ? ' is-error' : ''}`} data-field="content">
            {call.content}
          </pre>
        </section>
      )}
      {call.outputPath && !isLive(call.status) && (
        <FullOutput sessionId={call.sessionId} callId={call.id} commandStart={commandStart(call.command)} />
      )}
    </article>
  )
})

/**
 * A backgrounded call whose task was stopped reads "Stopped", not "Moved to background": the
 * task's live state wins over the call's own record, which is only as fresh as its last event.
 */
function useCallStatusLabel(call: BashCall): { status: string; text: string } {
  const task = useTasks().tasks?.find((t) => t.id === call.taskId)
  if (call.status !== 'backgrounded') return { status: call.status, text: CALL_STATUS_LABEL[call.status] }
  const ended = task && task.status !== 'running' ? task.status : call.taskStatus
  if (ended === 'stopped' || ended === 'killed') return { status: 'stopped', text: 'Stopped' }
  if (ended === 'completed') return { status: 'completed', text: 'Completed in the background' }
  if (ended === 'failed') return { status: 'failed', text: 'Failed in the background' }
  return { status: call.status, text: CALL_STATUS_LABEL[call.status] }
}
