import type { CliCommand } from '../command'
import { classifyCommandCli } from './classify'
import { execCommand } from './exec'
import { envCommand } from './env'
import { netCommand } from './net'
import { runCommand } from './run'
import { serveCommand } from './serve'
import { shellsCommand } from './shells'

/** Every `shellgate <name>` subcommand; each lives in its own file beside this one. */
export const commands: Record<string, CliCommand> = {
  classify: classifyCommandCli,
  exec: execCommand,
  env: envCommand,
  net: netCommand,
  run: runCommand,
  serve: serveCommand,
  shells: shellsCommand,
}
