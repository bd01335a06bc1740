import type { CliCommand } from '../command'

/** Every `shellgate <name>` subcommand; each lives in its own file beside this one. */
export const commands: Record<string, CliCommand> = {}
