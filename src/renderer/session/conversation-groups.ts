import type { CallChannel, Session } from '../../shared/ipc/domains/sessions'

export interface ConversationGroups {
  /** Open conversations with approvals waiting, the one waiting longest first. */
  waiting: Session[]
  /** Open conversations with nothing waiting, the latest active first; the person's own among them. */
  open: Session[]
  /** Agent runs that ended, newest first: folded away. */
  ended: Session[]
}

function lastActive(session: Session): string {
  return session.lastSeenAt ?? session.createdAt
}

/**
 * The conversation list: those waiting for the person on top, then the open ones, then the ended
 * ones folded. `oldestWaiting` maps a session to its oldest pending approval's request time.
 */
export function groupConversations(
  sessions: readonly Session[],
  oldestWaiting: ReadonlyMap<string, string>,
): ConversationGroups {
  const waiting: Session[] = []
  const open: Session[] = []
  const ended: Session[] = []
  for (const session of sessions) {
    if (oldestWaiting.has(session.id)) waiting.push(session)
    else if (session.endedAt !== null) ended.push(session)
    else open.push(session)
  }
  waiting.sort((a, b) => (oldestWaiting.get(a.id) ?? '').localeCompare(oldestWaiting.get(b.id) ?? ''))
  open.sort((a, b) => lastActive(b).localeCompare(lastActive(a)))
  ended.sort((a, b) => (b.endedAt ?? '').localeCompare(a.endedAt ?? ''))
  return { waiting, open, ended }
}

const CHANNEL_WORDS: Record<CallChannel, string> = {
  person: 'your command box',
  mcp: 'MCP',
  hook: 'hook',
  exec: 'shellgate exec',
}

/** "MCP and hook": how this conversation's calls arrived. */
export function channelWords(channels: readonly CallChannel[]): string {
  const words = channels.map((channel) => CHANNEL_WORDS[channel])
  if (words.length <= 1) return words[0] ?? 'no calls yet'
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`
}

/** Who: the agent and its full version ("claude-code 2.1.332"), or "You". */
export function conversationWho(session: Pick<Session, 'agent'>): string {
  if (!session.agent) return 'You'
  return session.agent.version ? `${session.agent.name} ${session.agent.version}` : session.agent.name
}

/** The workspace's last folder name, which tells two projects apart at a glance. */
export function workspaceName(workspace: string): string {
  return workspace.split(/[\\/]/).filter(Boolean).pop() ?? workspace
}

/** "14:03" today, "1 Dec, 14:03" another day: when the conversation started. */
export function startedWords(iso: string, now: Date = new Date()): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const time = date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
  const sameDay = date.toDateString() === now.toDateString()
  return sameDay ? time : `${date.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })}, ${time}`
}
