import type { Session } from '../../shared/ipc/domains/sessions'
import { formatTime } from '../format/measures'
import { channelWords, conversationWho } from './conversation-groups'

/** Who, where, since when and how its calls arrive; the shell it runs in, and what became of it. */
export function ConversationFacts({ session }: { session: Session }) {
  return (
    <>
      <h2 className="conversation-title">{conversationWho(session)}</h2>
      <dl className="inline-facts session-facts">
        <dt>Workspace</dt>
        <dd data-field="workspace">
          <code>{session.workspace}</code>
        </dd>
        <dt>Started</dt>
        <dd data-field="started">{formatTime(session.createdAt)}</dd>
        {session.origin === 'agent' && (
          <>
            <dt>Calls via</dt>
            <dd data-field="channels">{channelWords(session.channels)}</dd>
          </>
        )}
        {session.agentSessionId && (
          <>
            <dt>Agent's session</dt>
            <dd data-field="agent-session">
              <code>{session.agentSessionId}</code>
            </dd>
          </>
        )}
        {session.lastSeenAt && (
          <>
            <dt>Last seen</dt>
            <dd data-field="last-seen">{formatTime(session.lastSeenAt)}</dd>
          </>
        )}
        {session.endedAt && (
          <>
            <dt>Ended</dt>
            <dd data-field="ended">{formatTime(session.endedAt)}</dd>
          </>
        )}
        <dt>Shell</dt>
        <dd data-field="shell">
          {session.shell.name}
          {session.shell.path && (
            <>
              {' '}
              <code>{session.shell.path}</code>
            </>
          )}
        </dd>
      </dl>
      {session.shell.reminder && <p className="muted">{session.shell.reminder}</p>}
      {(session.shell.restore === 'fallback' || session.shell.restore === 'stale') && (
        <p className="call-notice" role="status">
          {session.shell.restore === 'fallback'
            ? 'The shell this conversation started with is gone; it now uses the one above.'
            : 'The shell this conversation started with is gone and no other shell was found: commands will fail to start until one is installed or chosen in Settings → Shell.'}
        </p>
      )}
    </>
  )
}
