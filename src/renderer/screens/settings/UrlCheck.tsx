import { type FormEvent, useState } from 'react'
import type { z } from 'zod'
import type { ConnectionReportSchema, UrlRouteSchema } from '../../../shared/ipc/domains/system'
import { Field } from '../../forms/Field'
import { errorMessage } from '../../forms/field-errors'
import { formatBytes } from '../../format/measures'
import { useClient } from '../../rpc'
import { CaHints } from './CaHints'

type UrlRoute = z.infer<typeof UrlRouteSchema>
type ConnectionReport = z.infer<typeof ConnectionReportSchema>

/** "Where will this URL go?" sends nothing; "Test connection" makes one real request through the app's client. */
export function UrlCheck() {
  const client = useClient()
  const [url, setUrl] = useState('')
  const [route, setRoute] = useState<UrlRoute | null>(null)
  const [report, setReport] = useState<ConnectionReport | null>(null)
  const [error, setError] = useState<string>()
  const [testing, setTesting] = useState(false)

  const check = (event: FormEvent) => {
    event.preventDefault()
    setReport(null)
    if (url.trim() === '') return setError('Enter a URL.')
    setError(undefined)
    client.request('network.route', { url: url.trim() }).then(setRoute, (failure: unknown) => {
      setRoute(null)
      setError(errorMessage(failure).replace(/^network\.route: (url: )?/, ''))
    })
  }
  const test = () => {
    if (url.trim() === '') return setError('Enter a URL.')
    setError(undefined)
    setTesting(true)
    client.request('network.test', { url: url.trim() }).then(
      (result) => {
        setTesting(false)
        setReport(result)
      },
      (failure: unknown) => {
        setTesting(false)
        setError(errorMessage(failure).replace(/^network\.test: (url: )?/, ''))
      },
    )
  }

  return (
    <form onSubmit={check} aria-label="Where will this URL go?" noValidate>
      <h3 className="small-heading">Where will this URL go?</h3>
      <Field label="URL" error={error}>
        {(control) => (
          <input
            {...control}
            className="mono"
            type="url"
            placeholder="https://registry.npmjs.org/"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
          />
        )}
      </Field>
      <div className="form-actions">
        <button type="submit">Check route</button>
        <button type="button" onClick={test} disabled={testing}>
          {testing ? 'Testing…' : 'Test connection'}
        </button>
      </div>
      {route && (
        <dl className="facts" aria-label="Route" data-testid="url-route">
          <dt>Route</dt>
          <dd data-field="route">{route.route}</dd>
          <dt>Proxy</dt>
          <dd data-field="proxy">{route.proxy ?? 'none'}</dd>
          <dt>Decided by</dt>
          <dd data-field="rule">
            {route.rule}
            {route.pattern && ` (${route.pattern})`}
            {route.source && ` from ${route.source}`}
          </dd>
          <dt>Why</dt>
          <dd data-field="reason">{route.reason}</dd>
        </dl>
      )}
      {report && (
        <dl className="facts" aria-label="Connection test" data-testid="connection-report">
          <dt>Result</dt>
          <dd data-field="status">{report.status}</dd>
          {report.httpStatus !== undefined && (
            <>
              <dt>HTTP status</dt>
              <dd data-field="httpStatus">{report.httpStatus}</dd>
            </>
          )}
          {report.bytes !== undefined && (
            <>
              <dt>Received</dt>
              <dd>{formatBytes(report.bytes)}</dd>
            </>
          )}
          {(report.reason || report.code) && (
            <>
              <dt>Why</dt>
              <dd data-field="reason">{[report.code, report.reason].filter(Boolean).join(': ')}</dd>
            </>
          )}
          {report.traceId && (
            <>
              <dt>Trace</dt>
              <dd>{report.traceId}</dd>
            </>
          )}
        </dl>
      )}
      {report?.caHints && <CaHints hints={report.caHints} />}
    </form>
  )
}
