import { memo } from 'react'
import type { BashCall } from '../../shared/ipc/domains/bash'
import { commandName, commandStart } from '../format/command-name'
import { formatBytes, formatDuration, formatTime } from '../format/measures'
import { revealInvisible } from '../format/reveal-invisible'
import { BackgroundNotice } from './BackgroundNotice'
import { CallProgressView } from './CallProgressView'
import { CALL_STATUS_LABEL, isLive } from './call-status'
import { DecisionSummary } from './DecisionSummary'
import { FullOutput } from './FullOutput'
import { hiddenCharactersNotice } from '../format/reveal-invisible'
import type { CallProgress } from './LiveCallsProvider'

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
  const command = revealInvisible(call.command)
  return (
    <article
      className="panel call-card"
      aria-label={commandName(call.command)}
      data-status={call.status}
      data-call-id={call.id}
    >
      <header className="call-header">
        <span className={`status status-${call.status}`} data-field="status">
          {CALL_STATUS_LABEL[call.status]}
        </span>
        <code className="call-command">{command.text}</code>
      </header>
      {command.hidden > 0 && <p role="note">{hiddenCharactersNotice(command.hidden)}</p>}
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
      {call.status === 'waiting_for_approval' && (
        <p className="call-notice">
          Waiting for your approval. <a href="#/approvals">Open Approvals</a>
        </p>
      )}
      {call.status === 'backgrounded' && call.taskId && (
        <BackgroundNotice taskId={call.taskId} taskStatus={call.taskStatus} />
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
