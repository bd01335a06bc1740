import type { CliCommand } from '../command'
import { serveCommand } from './serve'

/** Every `shellgate <name>` subcommand; each lives in its own file beside this one. */
export const commands: Record<string, CliCommand> = {
  serve: serveCommand,
}
