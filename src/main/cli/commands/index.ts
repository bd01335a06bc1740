import type { CliCommand } from '../command'
import { netCommand } from './net'
import { serveCommand } from './serve'

/** Every `shellgate <name>` subcommand; each lives in its own file beside this one. */
export const commands: Record<string, CliCommand> = {
  net: netCommand,
  serve: serveCommand,
}
