import { EmptyState } from '../components/EmptyState'
import { CallCard } from './CallCard'
import { useCallHistory } from './use-call-history'

/** The session's calls, newest on top. */
export function CallHistory({ sessionId }: { sessionId: string }) {
  const { calls, progress, error } = useCallHistory(sessionId)
  if (error)
    return (
      <p role="alert" className="form-error">
        Could not load the history: {error}
      </p>
    )
  if (calls === null) return <p className="muted">Loading history…</p>
  if (calls.length === 0)
    return (
      <EmptyState title="No commands yet">
        Commands run in this session appear here with their status, exit code, decision and output.
      </EmptyState>
    )
  return (
    <section className="call-history" aria-label="History">
      {calls
        .slice()
        .reverse()
        .map((call) => (
          <CallCard key={call.id} call={call} progress={progress.get(call.id)} />
        ))}
    </section>
  )
}
