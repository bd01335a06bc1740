import { useMemo } from 'react'
import { createAnsiDocument } from '../ansi/ansi-document'
import { formatAge, formatBytes, formatDuration } from '../format/measures'
import { useNow } from '../format/use-now'
import { VirtualOutput } from '../output/VirtualOutput'
import type { CallProgress } from './LiveCallsProvider'

/** While a call runs: elapsed time and last-output age tick every second; bytes and tail follow bash.progress. */
export function CallProgressView({
  startedAt,
  progress,
}: {
  startedAt: string
  progress: CallProgress | undefined
}) {
  const now = useNow(true)
  const sinceEvent = progress ? Math.max(0, now - progress.receivedAt) : 0
  const elapsed = progress ? progress.elapsedMs + sinceEvent : Math.max(0, now - Date.parse(startedAt))
  const age = progress?.lastOutputAgeMs == null ? null : progress.lastOutputAgeMs + sinceEvent
  const output = useMemo(() => createAnsiDocument(progress?.tail ?? ''), [progress?.tail])
  return (
    <div className="call-progress">
      <dl className="inline-facts">
        <dt>Elapsed</dt>
        <dd data-field="elapsed">{formatDuration(elapsed)}</dd>
        <dt>Output</dt>
        <dd data-field="bytes">{formatBytes(progress?.totalBytes ?? 0)}</dd>
        <dt>Last output</dt>
        <dd data-field="lastOutput">{formatAge(age)}</dd>
      </dl>
      {progress && progress.tail !== '' && (
        <VirtualOutput document={output} label="Live output" follow viewportPx={200} />
      )}
    </div>
  )
}
