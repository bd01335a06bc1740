import type { ExecutionResult } from './types'

/**
 * One plain line for each thing the executor had to do or could not confirm, for the model and
 * the person: what outlived the command (and whether it was stopped), and a kill that failed.
 */
export function executorNotes(result: Pick<ExecutionResult, 'lingering' | 'termination'>): string[] {
  const notes: string[] = []
  const { lingering, termination } = result
  if (lingering) {
    const one = lingering.heldOutput || lingering.pids === 1
    const what = lingering.heldOutput
      ? 'a background process kept the output open'
      : `${one ? 'a process' : `${lingering.pids} processes`} the command started kept running`
    const pronoun = one ? 'it' : 'they'
    notes.push(
      `${what}; ${pronoun} ${lingering.killed ? 'was stopped' : 'could not be stopped'}`.replace(
        'they was',
        'they were',
      ),
    )
  }
  if (termination?.problem) notes.push(termination.problem)
  return notes
}
