import { CommandText } from '../../commands/CommandText'
import { type AuditStatus, AuditStatusSchema, type DecidedBy, DecidedBySchema } from '../../../shared/audit'
import { useState } from 'react'
import { formatBytes, formatDuration, formatTime } from '../../format/measures'
import { useSessions } from '../../session/SessionsProvider'
import { useRequest } from '../../use-request'
import { AuditFilters, type AuditFilterValues, NO_AUDIT_FILTERS } from './AuditFilters'
import { DECIDED_BY_WORDS, STATUS_WORDS } from './audit-words'

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
        // Five columns that fit the panel (each cell wraps), and one block per line on a narrow screen.
        <div className="table-scroller">
          <table className="data-table audit-table" aria-label="Audit log">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Command</th>
                <th scope="col">Decision</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: log lines have no id; the query's order is stable.
                <tr key={index}>
                  <td data-label="When">{formatTime(entry.time)}</td>
                  <td data-label="Who" title={entry.session}>
                    {entry.agent ?? 'you'}
                    <div className="muted">{titleOf(entry.session)}</div>
                  </td>
                  <td data-label="Command">
                    <CommandText command={entry.command} as="code" />
                    <div className="muted">
                      {entry.cwd} · {entry.shell}
                    </div>
                  </td>
                  <td data-label="Decision">
                    <span data-field="verdict">{entry.verdict === 'allow' ? 'Allowed' : 'Denied'}</span>:{' '}
                    <span data-field="decidedBy">{DECIDED_BY_WORDS[entry.decidedBy] ?? entry.decidedBy}</span>
                    {entry.rule && (
                      <div>
                        rule <code>{entry.rule}</code>
                      </div>
                    )}
                    {entry.ruleFile && !entry.ruleFile.startsWith('session:') && (
                      <div className="muted">{entry.ruleFile}</div>
                    )}
                    {entry.approvedBy && <div className="muted">answered by {entry.approvedBy}</div>}
                  </td>
                  <td data-label="Result">
                    <span data-field="status">{STATUS_WORDS[entry.status] ?? entry.status}</span>
                    {entry.exitCode !== null && `, exit ${entry.exitCode}`}
                    <div className="muted">
                      {[
                        entry.durationMs === null ? null : formatDuration(entry.durationMs),
                        entry.bytes === null ? null : formatBytes(entry.bytes),
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </div>
                  </td>
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
