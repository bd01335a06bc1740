import { revealInvisible } from '../../shared/reveal-invisible'

/**
 * A screen reader reads an accessible name whole: a 100k-character command as a card's name would
 * take minutes and bury everything after it. Long enough to tell commands apart, short enough to hear.
 */
export const COMMAND_NAME_MAX_CHARS = 200

/** A button's name repeats the command's start so "Stop" on one card differs from "Stop" on the next. */
export const COMMAND_START_MAX_CHARS = 60

function cap(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 1)}…`
}

/** The accessible name of a card for `command`: invisible characters shown as ⟨U+…⟩, then capped. */
export function commandName(command: string): string {
  return cap(revealInvisible(command).text, COMMAND_NAME_MAX_CHARS)
}

/** The start of `command` for per-card button names ("Stop sleep 100"). */
export function commandStart(command: string): string {
  return cap(revealInvisible(command).text, COMMAND_START_MAX_CHARS)
}
