import { CommandText } from '../../commands/CommandText'
import { type AuditStatus, AuditStatusSchema, type DecidedBy, DecidedBySchema } from '../../../shared/audit'
import { useState } from 'react'
import { formatBytes, formatDuration, formatTime } from '../../format/measures'
import { useSessions } from '../../session/SessionsProvider'
import { useRequest } from '../../use-request'
import { AuditFilters, type AuditFilterValues, NO_AUDIT_FILTERS } from './AuditFilters'

/** Newest first; the log file holds more, this shows the latest matches. */
const AUDIT_ROWS_SHOWN = 500

function toQuery(filters: AuditFilterValues) {
  const query: {
    text?: string
    decidedBy?: DecidedBy
    status?: AuditStatus
    session?: string
    limit: number
  } = {
    limit: AUDIT_ROWS_SHOWN,
  }
  if (filters.text.trim()) query.text = filters.text.trim()
  // The selects offer only the schemas' own values; anything else is left out rather than sent.
  const decidedBy = DecidedBySchema.safeParse(filters.decidedBy)
  if (decidedBy.success) query.decidedBy = decidedBy.data
  const status = AuditStatusSchema.safeParse(filters.status)
  if (status.success) query.status = status.data
  if (filters.session) query.session = filters.session
  return query
}

export function AuditPanel() {
  const { sessions } = useSessions()
  const titleOf = (id: string) => sessions?.find((session) => session.id === id)?.title ?? id
  const [filters, setFilters] = useState(NO_AUDIT_FILTERS)
  const audit = useRequest('audit.query', toQuery(filters))
  const entries = audit.data?.entries
  return (
    <section className="panel" aria-labelledby="audit-title" aria-busy={audit.loading}>
      <h2 id="audit-title">Audit</h2>
      <AuditFilters onApply={setFilters} />
      {audit.error && <p role="alert">Could not read the audit log: {audit.error}</p>}
      {audit.data && audit.data.skippedLines > 0 && (
        <p className="muted">{audit.data.skippedLines} unreadable lines in the log were skipped.</p>
      )}
      {entries?.length === 0 && <p className="muted">No audited commands match.</p>}
      {entries && entries.length > 0 && (
        <div className="table-scroller">
          <table className="data-table" aria-label="Audit log">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Session</th>
                <th scope="col">Agent</th>
                <th scope="col">Command</th>
                <th scope="col">Verdict</th>
                <th scope="col">Decided by</th>
                <th scope="col">Rule</th>
                <th scope="col">Approved by</th>
                <th scope="col">Status</th>
                <th scope="col">Exit</th>
                <th scope="col">Duration</th>
                <th scope="col">Bytes</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: log lines have no id; the query's order is stable.
                <tr key={index}>
                  <td>{formatTime(entry.time)}</td>
                  <td title={entry.session}>{titleOf(entry.session)}</td>
                  <td>{entry.agent ?? 'you'}</td>
                  <td>
                    <CommandText command={entry.command} as="code" />
                    <div className="muted">
                      {entry.cwd} · {entry.shell}
                    </div>
                  </td>
                  <td>{entry.verdict}</td>
                  <td>{entry.decidedBy}</td>
                  <td>
                    {entry.rule && <code>{entry.rule}</code>}
                    {entry.ruleFile && !entry.ruleFile.startsWith('session:') && (
                      <div className="muted">{entry.ruleFile}</div>
                    )}
                  </td>
                  <td>{entry.approvedBy ?? ''}</td>
                  <td>{entry.status}</td>
                  <td>{entry.exitCode ?? ''}</td>
                  <td>{entry.durationMs === null ? '' : formatDuration(entry.durationMs)}</td>
                  <td>{entry.bytes === null ? '' : formatBytes(entry.bytes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <button type="button" onClick={audit.reload}>
        Refresh
      </button>
    </section>
  )
}
