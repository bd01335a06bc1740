import { useEffect, useState } from 'react'
import type { AgentSetup, AgentView } from '../../../shared/ipc/domains/agents'
import { useEvent } from '../../events/use-event'
import { useRequest } from '../../use-request'
import { AgentSetupStatus } from './AgentSetupStatus'

/** Settings → Agents: which agents are connected and what each runs, and how to connect one. */
export function AgentsPanel() {
  const report = useRequest('agents.list', {})
  // Calls and tasks change while the panel is open; a change of either refreshes the list.
  useEvent('bash.call', () => report.reload())
  useEvent('tasks.updated', () => report.reload())
  useEvent('sessions.changed', () => report.reload())
  return (
    <>
      <section className="panel" aria-labelledby="agents-title">
        <h2 id="agents-title">Connected agents</h2>
        {report.error && <p role="alert">Could not load: {report.error}</p>}
        {report.data?.agents.length === 0 && (
          <p className="muted">
            No agent has connected yet. Connect one below; its commands then show up here.
          </p>
        )}
        <ul className="agent-list">
          {report.data?.agents.map((agent) => (
            <AgentRow key={agent.sessionId} agent={agent} />
          ))}
        </ul>
      </section>
      <AgentSetupStatus />
      {report.data?.setups.map((setup) => (
        <SetupCard key={setup.client} setup={setup} />
      ))}
    </>
  )
}

function AgentRow({ agent }: { agent: AgentView }) {
  const name = agent.agent.version ? `${agent.agent.name} ${agent.agent.version}` : agent.agent.name
  return (
    <li
      className="agent-row"
      data-testid="agent-row"
      aria-label={`${name}, ${agent.connected ? 'connected' : 'not connected'}`}
    >
      <strong>{name}</strong> <span className="muted">{agent.workspace}</span>{' '}
      <span data-field="connected">{agent.connected ? 'connected now' : 'not connected'}</span>
      {agent.calls.length + agent.tasks.length === 0 ? (
        <p className="muted">Nothing running.</p>
      ) : (
        <ul>
          {agent.calls.map((call) => (
            <li key={call.callId}>
              <code>{call.command}</code>{' '}
              <span className="muted">
                {call.status === 'waiting_for_approval' ? 'waiting for you' : 'running'}
              </span>
            </li>
          ))}
          {agent.tasks.map((task) => (
            <li key={task.taskId}>
              <code>{task.command}</code> <span className="muted">background task {task.taskId}</span>
            </li>
          ))}
        </ul>
      )}
    </li>
  )
}

function SetupCard({ setup }: { setup: AgentSetup }) {
  const id = `connect-${setup.client}`
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 id={id}>Connect {setup.title}</h2>
      <p>
        Run <code>shellgate connect {setup.client} --write</code>, or:
      </p>
      {setup.command && <CopyBlock label={`${setup.title} command`} text={setup.command} />}
      {setup.files.map((file) => (
        <div key={file.path}>
          <p className="muted">Add to {file.path}:</p>
          <CopyBlock label={`${setup.title}: ${file.path}`} text={file.text} />
        </div>
      ))}
      <ul>
        {setup.notes.map((note) => (
          <li key={note} className="muted">
            {note}
          </li>
        ))}
      </ul>
    </section>
  )
}

function CopyBlock({ label, text }: { label: string; text: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(null), 2_000)
    return () => clearTimeout(timer)
  }, [copied])
  return (
    <div className="copy-block">
      <pre>{text}</pre>
      <button
        type="button"
        aria-label={`Copy ${label}`}
        onClick={() =>
          navigator.clipboard.writeText(text).then(
            () => setCopied('yes'),
            () => setCopied('failed'),
          )
        }
      >
        Copy
      </button>
      <span role="status">
        {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Copy failed: select the text' : ''}
      </span>
    </div>
  )
}
