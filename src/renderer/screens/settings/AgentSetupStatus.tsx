import type { AgentClientStatus, SetupCheck } from '../../../shared/ipc/domains/agents'
import { formatTime } from '../../format/measures'
import { useRequest } from '../../use-request'

const FILE_ROLE: Record<AgentClientStatus['files'][number]['role'], string> = {
  mcp: 'MCP server',
  hook: 'hook',
  permission: 'permission rule',
}

function CheckLine({ label, check, field }: { label: string; check: SetupCheck | null; field: string }) {
  if (!check) return null
  const mark = check.ok === true ? 'yes' : check.ok === false ? 'no' : 'unknown'
  return (
    <div className="fact">
      <dt>{label}</dt>
      <dd data-field={field} data-ok={mark}>
        <span className={`check check-${mark}`}>{mark}</span> {check.detail}
      </dd>
    </div>
  )
}

/**
 * Settings → Agents, per client (as `shellgate doctor` prints it): configured (which files), the
 * command found, the MCP server answering, the hook installed (and Codex's trust), last seen, and
 * the one command that fixes what is missing.
 */
export function AgentSetupStatus() {
  const status = useRequest('agents.status', {})
  return (
    <section className="panel" aria-labelledby="agent-status-title" aria-busy={status.loading}>
      <h2 id="agent-status-title">Is each agent connected?</h2>
      {status.loading && <p className="muted">Checking each client (this starts its MCP server once)…</p>}
      {status.error && <p role="alert">Could not check: {status.error}</p>}
      <ul className="agent-status-list">
        {status.data?.clients.map((client) => (
          <li key={client.client} data-testid="agent-status" aria-label={client.title}>
            <h3>
              {client.title}:{' '}
              <span data-field="configured">{client.configured ? 'configured' : 'not configured'}</span>
            </h3>
            <dl className="inline-facts">
              {client.files.map((file) => (
                <div className="fact" key={`${file.role}:${file.path}`}>
                  <dt>{FILE_ROLE[file.role]}</dt>
                  <dd data-field={`file-${file.role}`}>
                    <code>{file.path}</code> {file.state}
                    {file.command && (
                      <>
                        {' '}
                        runs <code>{file.command}</code>
                      </>
                    )}
                  </dd>
                </div>
              ))}
              <CheckLine label="Command found" check={client.command} field="command" />
              <CheckLine label="MCP server answers" check={client.mcp} field="mcp" />
              <CheckLine label="Hook installed" check={client.hook} field="hook" />
              <CheckLine label="Trusted in /hooks" check={client.trusted} field="trusted" />
              <div className="fact">
                <dt>Last seen</dt>
                <dd data-field="lastSeen">{client.lastSeenAt ? formatTime(client.lastSeenAt) : 'never'}</dd>
              </div>
            </dl>
            {client.fix && (
              <p>
                To fix: <code>{client.fix}</code>
              </p>
            )}
          </li>
        ))}
      </ul>
      <button type="button" onClick={status.reload} disabled={status.loading}>
        Check again
      </button>
    </section>
  )
}
