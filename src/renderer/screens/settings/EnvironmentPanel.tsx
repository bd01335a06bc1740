import { formatDuration } from '../../format/measures'
import { useRequest } from '../../use-request'
import { PassThroughForm } from './PassThroughForm'

function KeyList({ label, keys, empty }: { label: string; keys: string[]; empty: string }) {
  return (
    <>
      <h3 className="small-heading">
        {label} ({keys.length})
      </h3>
      {keys.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="key-list" aria-label={label}>
          {keys.map((key) => (
            <li key={key}>
              <code>{key}</code>
            </li>
          ))}
        </ul>
      )}
    </>
  )
}

/**
 * The login-shell capture and what agent commands lose of the environment: names only, never
 * values. The same report `shellgate env` prints (describeEnvironmentNames).
 */
export function EnvironmentPanel() {
  const report = useRequest('env.report', {})
  const data = report.data
  return (
    <section className="panel" aria-labelledby="environment-title">
      <h2 id="environment-title">Environment</h2>
      {report.error && <p role="alert">Could not load the environment report: {report.error}</p>}
      {data && (
        <>
          <dl className="facts" data-testid="environment-facts">
            <dt>Status</dt>
            <dd data-field="status">{data.status}</dd>
            <dt>Shell</dt>
            <dd data-field="shell">{data.shell ?? 'none'}</dd>
            <dt>Duration</dt>
            <dd data-field="duration">{formatDuration(data.durationMs)}</dd>
            <dt>PATH patched</dt>
            <dd data-field="pathPatched">{data.pathPatched ? 'yes' : 'no'}</dd>
          </dl>
          {data.messages.length > 0 && (
            <ul aria-label="Messages">
              {data.messages.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          )}
          {/* What happened when Shellgate started comes first: the login shell adds to it. */}
          <h3>When Shellgate started</h3>
          <KeyList
            label="Sealed at entry"
            keys={data.entry.sealedKeys}
            empty="No proxy or certificate variables were sealed."
          />
          <KeyList label="Dropped at entry" keys={data.entry.droppedKeys} empty="Nothing was dropped." />
          <h3>From your login shell</h3>
          <KeyList label="Captured keys" keys={data.keys} empty="No variables were captured." />
          {data.sealedKeys.length > 0 ? (
            <KeyList label="Sealed from your login shell" keys={data.sealedKeys} empty="" />
          ) : (
            <p className="muted">Your login shell set no proxy or certificate variable beyond those above.</p>
          )}
          <h3>Agent commands</h3>
          <KeyList
            label="Withheld from agent commands"
            keys={data.withheldKeys}
            empty="No credential-like variables were found."
          />
          <KeyList
            label="Passed through"
            keys={data.passedThroughKeys}
            empty="No credential-like variable is passed through."
          />
          <KeyList
            label="Also removed when a command runs without asking"
            keys={data.autoRunRemovedKeys}
            empty="No code-injection variables were found."
          />
        </>
      )}
      <h3 className="small-heading">Let credentials through</h3>
      <PassThroughForm onSaved={report.reload} />
      <button type="button" onClick={report.reload}>
        Refresh
      </button>
    </section>
  )
}
