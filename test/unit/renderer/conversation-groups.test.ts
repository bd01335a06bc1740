import { describe, expect, it } from 'vitest'
import {
  channelWords,
  conversationWho,
  groupConversations,
  workspaceName,
} from '../../../src/renderer/session/conversation-groups'
import type { Session } from '../../../src/shared/ipc/domains/sessions'

function session(id: string, overrides: Partial<Session> = {}): Session {
  return {
    id,
    title: id,
    workspace: '/w',
    agent: { name: 'claude-code', version: '2.1.332' },
    createdAt: '2026-12-01T10:00:00.000Z',
    shell: { path: '/bin/bash', name: 'bash', restore: 'new', reminder: null },
    origin: 'agent',
    channels: ['mcp'],
    agentSessionId: null,
    lastSeenAt: null,
    endedAt: null,
    ...overrides,
  }
}

describe('groupConversations', () => {
  it('puts the waiting on top (longest wait first), then the open (latest first), and folds the ended', () => {
    const groups = groupConversations(
      [
        session('ended-old', { endedAt: '2026-12-01T10:05:00.000Z' }),
        session('open-quiet', { lastSeenAt: '2026-12-01T10:01:00.000Z' }),
        session('waits-short'),
        session('mine', {
          agent: null,
          origin: 'person',
          channels: ['person'],
          lastSeenAt: '2026-12-01T10:09:00.000Z',
        }),
        session('waits-long'),
        session('ended-new', { endedAt: '2026-12-01T10:08:00.000Z' }),
        // An ended run with an approval still waiting is not folded away.
        session('ended-waiting', { endedAt: '2026-12-01T10:07:00.000Z' }),
      ],
      new Map([
        ['waits-short', '2026-12-01T10:03:00.000Z'],
        ['waits-long', '2026-12-01T10:02:00.000Z'],
        ['ended-waiting', '2026-12-01T10:04:00.000Z'],
      ]),
    )
    expect(groups.waiting.map((s) => s.id)).toEqual(['waits-long', 'waits-short', 'ended-waiting'])
    expect(groups.open.map((s) => s.id)).toEqual(['mine', 'open-quiet'])
    expect(groups.ended.map((s) => s.id)).toEqual(['ended-new', 'ended-old'])
  })
})

describe('conversation words', () => {
  it('names the agent with its full version, the person as You, and the channels', () => {
    expect(conversationWho(session('a'))).toBe('claude-code 2.1.332')
    expect(conversationWho({ agent: null })).toBe('You')
    expect(channelWords(['mcp', 'hook'])).toBe('MCP and hook')
    expect(channelWords(['hook', 'mcp', 'exec'])).toBe('hook, MCP and shellgate exec')
    expect(channelWords([])).toBe('no calls yet')
    expect(workspaceName('/home/me/projects/api/')).toBe('api')
    expect(workspaceName('C:\\work\\web')).toBe('web')
  })
})
