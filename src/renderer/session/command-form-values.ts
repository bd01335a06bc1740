import { COMMAND_INPUT_MAX_CHARS } from '../../shared/ipc/domains/bash'
import type { FieldErrors } from '../forms/field-errors'

/** Mirrors the contract's description cap so the user hears about it before a round trip. */
export const DESCRIPTION_MAX_CHARS = 1_000

export interface CommandFormValues {
  command: string
  description: string
  timeout: string
  background: boolean
  /** Run on a terminal (issue 23.1): a task you and the agent can type into from Tasks. */
  terminal?: boolean
}

export type CommandField = 'command' | 'description' | 'timeout' | 'background' | 'terminal'

/** Server path (the Bash tool's own field names) → form field, for errors sent back by bash.run. */
export const BASH_RUN_FIELDS: Readonly<Record<string, CommandField>> = {
  command: 'command',
  description: 'description',
  timeout: 'timeout',
  run_in_background: 'background',
  tty: 'terminal',
}

export interface BashToolCall {
  command: string
  description?: string
  timeout?: number
  run_in_background?: boolean
  tty?: boolean
}

/**
 * Local checks for what is obviously wrong; the server's strict schema still decides everything else
 * (0 means the default timeout and anything above the maximum is capped there, as for an agent).
 */
export function validateCommandForm(
  values: CommandFormValues,
): { ok: true; call: BashToolCall } | { ok: false; errors: FieldErrors<CommandField> } {
  const errors: FieldErrors<CommandField> = {}
  if (values.command.trim() === '') errors.command = 'Enter a command to run.'
  else if (values.command.length > COMMAND_INPUT_MAX_CHARS)
    errors.command = `A command is at most ${COMMAND_INPUT_MAX_CHARS.toLocaleString('en')} characters (this one has ${values.command.length.toLocaleString('en')}).`
  if (values.description.length > DESCRIPTION_MAX_CHARS)
    errors.description = `A description is at most ${DESCRIPTION_MAX_CHARS} characters.`
  const timeoutText = values.timeout.trim()
  if (timeoutText !== '' && !/^\d+$/.test(timeoutText))
    errors.timeout = `Timeout must be a whole number of milliseconds, not "${timeoutText}".`
  if (Object.keys(errors).length > 0) return { ok: false, errors }

  const call: BashToolCall = { command: values.command }
  if (values.description.trim() !== '') call.description = values.description.trim()
  if (timeoutText !== '') call.timeout = Number(timeoutText)
  if (values.background) call.run_in_background = true
  if (values.terminal) call.tty = true
  return { ok: true, call }
}
