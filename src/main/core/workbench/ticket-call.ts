import type { OutputFileRef } from '../exec/types'
import type { TicketGrant } from './hook-tickets'

/** What run() needs to know about a ticket's call (BashRunOptions.ticket). */
export interface TicketCall {
  /** The person's answer on the hook's card; null when the decision was automatic (read-only, a rule). */
  approval: Pick<TicketGrant, 'decidedBy' | 'approvedBy' | 'rule' | 'unsandboxedByPerson'> | null
  /** Where it runs: where the agent's shell is. The session's cwd does not move. */
  cwd: string
  onOutputFile(file: OutputFileRef): void
  /** Where the command's shell ended up, when it was captured. */
  onEndCwd(cwd: string): void
}
