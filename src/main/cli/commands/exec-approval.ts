import { type DecidedBy, DecidedBySchema } from '../../../shared/audit'
import { connectToHub } from '../../hub/hub-client'
import { HubError } from '../../hub/hub-error'
import { APP_VERSION } from '../../core/version'
import type { CliIo } from '../command'

export type PersonAnswer =
  | { kind: 'allowed'; decidedBy: DecidedBy; approvedBy: string | null }
  | { kind: 'denied'; message: string }
  | { kind: 'no_hub'; message: string }

/**
 * `shellgate exec` never approves a command itself: one that needs approval goes to the running
 * hub, where the person answers it in the UI, and exec waits. Ctrl+C withdraws the card.
 */
export async function askThePerson(input: {
  io: CliIo
  home: string
  cwd: string
  command: string
}): Promise<PersonAnswer> {
  const { io } = input
  const hub = await connectToHub({ home: input.home }).catch((error: unknown) => {
    if (error instanceof HubError) return null
    throw error
  })
  if (!hub) {
    return {
      kind: 'no_hub',
      message: 'it needs approval and Shellgate is not running, so nobody can approve it',
    }
  }
  try {
    io.stderr(
      `shellgate exec: waiting for your approval in Shellgate${hub.uiUrl ? ` (${hub.uiUrl})` : ''}; Ctrl+C withdraws it\n`,
    )
    const answer = await Promise.race([
      hub.client.request('hooks.decide', {
        agent: { name: 'shellgate exec', version: APP_VERSION },
        agentSessionId: 'cli',
        workspace: input.cwd,
        command: input.command,
      }),
      new Promise<null>((resolve) => {
        if (input.io.signal.aborted) resolve(null)
        input.io.signal.addEventListener('abort', () => resolve(null), { once: true })
      }),
    ])
    if (!answer) return { kind: 'denied', message: 'withdrawn before the person answered' }
    if (answer.decision === 'deny') return { kind: 'denied', message: answer.reason }
    // The hub may allow it by its own rules; only an answer in its UI is recorded as the person's.
    const decidedBy = DecidedBySchema.safeParse(answer.decidedBy)
    const byPerson = answer.decidedBy === 'user_once' || answer.decidedBy === 'user_always'
    return {
      kind: 'allowed',
      decidedBy: decidedBy.success ? decidedBy.data : 'rule',
      approvedBy: byPerson ? 'user' : null,
    }
  } finally {
    await hub.close().catch(() => undefined)
  }
}
