import type { ExecutionStatus } from '../../exec/types'
import type { ExitSemantics } from './exit-code-semantics'
import { type ImageBlock, parseImageOutput } from './image-output'
import { formatPersistedOutput } from './persisted-output'
import { stripAnsi } from './strip-ansi'

/** What the model is shown for one Bash call (seed 003, formatBashModelContent). */

export const ABORT_NOTE = '<error>Command was aborted before completion</error>'

export interface TextBlock {
  type: 'text'
  text: string
}
export type ModelBlock = TextBlock | ImageBlock

export interface BashOutcome {
  status: ExecutionStatus
  exitCode: number | null
  /** The first `inlineLimit` bytes of the combined output (or all of it when it fits). */
  head: string
  totalBytes: number
  /** Set when the output was over the inline limit and its file is kept. */
  persistedPath: string | null
  /** A NUL early in the output: show its size, not its bytes. */
  binary: boolean
  /** The executor's words for a run that did not complete (`Command timed out after 2m`). */
  errorMessage: string | null
  /** seed 000: empty output and a failure on a nearly full disk says so, so nobody guesses. */
  diskFull?: string | null
  /** One line each: what the executor had to clean up or could not read (executorNotes). */
  notes?: readonly string[]
}

export interface ModelContentInput {
  outcome: BashOutcome
  semantics: ExitSemantics
  /** `Shell cwd was reset to …` from the cwd policy. */
  cwdNote?: string | null
  /** The gh rate-limit reminder, when the notifier gave one. */
  ghHint?: string | null
}

export interface ModelContent {
  blocks: ModelBlock[]
  isError: boolean
}

/** seed 003: an empty command runs nothing and shows nothing. */
export function isEmptyBashCommand(command: string): boolean {
  return command.trim() === ''
}
export const EMPTY_COMMAND_CONTENT: ModelContent = Object.freeze({
  blocks: [],
  isError: false,
}) as ModelContent

export function formatBashModelContent(input: ModelContentInput): ModelContent {
  const { outcome, semantics } = input
  const aborted = outcome.status === 'cancelled'
  const failed = outcome.status !== 'completed' && !(outcome.status === 'failed' && !semantics.isError)
  if (outcome.status === 'completed' && outcome.persistedPath === null && !outcome.binary) {
    const image = parseImageOutput(outcome.head)
    if (image) return { blocks: [image], isError: false }
  }
  const lines: string[] = []
  if (outcome.status === 'failed' && semantics.isError && outcome.exitCode !== null)
    lines.push(`Exit code ${outcome.exitCode}`)
  lines.push(outputText(outcome))
  if (outcome.status === 'failed' && !semantics.isError && semantics.message) lines.push(semantics.message)
  // A plain non-zero exit is already said by "Exit code N" (or its meaning); the executor's words
  // matter for a timeout, a spawn error, a signal or the output cap.
  const killed = outcome.status === 'failed' && outcome.exitCode === null
  if (
    outcome.errorMessage &&
    (outcome.status === 'timed_out' || outcome.status === 'spawn_error' || killed)
  ) {
    lines.push(outcome.errorMessage)
  }
  if (outcome.diskFull) lines.push(outcome.diskFull)
  lines.push(...(outcome.notes ?? []))
  if (aborted) lines.push(ABORT_NOTE)
  if (input.cwdNote) lines.push(input.cwdNote)
  if (input.ghHint) lines.push(input.ghHint)
  const text = lines.filter((line) => line !== '').join('\n')
  return { blocks: [{ type: 'text', text: text === '' ? '(no output)' : text }], isError: failed }
}

function outputText(outcome: BashOutcome): string {
  if (outcome.binary)
    return `[binary output: ${outcome.totalBytes} bytes${outcome.persistedPath ? ` in ${outcome.persistedPath}` : ''}]`
  const head = stripAnsi(outcome.head).replace(/\n+$/, '')
  if (outcome.persistedPath !== null)
    return formatPersistedOutput(outcome.totalBytes, outcome.persistedPath, head)
  return head
}
