import type { CliCommand } from '../command'
import { classifyCommandCli } from './classify'
import { connectCommand } from './connect'
import { doctorCommand } from './doctor'
import { envCommand } from './env'
import { execCommand } from './exec'
import { hookCommand } from './hook'
import { mcpCommand } from './mcp'
import { netCommand } from './net'
import { runCommand } from './run'
import { sandboxCommand } from './sandbox'
import { serveCommand } from './serve'
import { shellsCommand } from './shells'
import { ticketCommand } from './ticket'
import { uiCommand } from './ui'

/** Every `shellgate <name>` subcommand; each lives in its own file beside this one. */
export const commands: Record<string, CliCommand> = {
  classify: classifyCommandCli,
  connect: connectCommand,
  doctor: doctorCommand,
  env: envCommand,
  exec: execCommand,
  hook: hookCommand,
  mcp: mcpCommand,
  net: netCommand,
  run: runCommand,
  sandbox: sandboxCommand,
  serve: serveCommand,
  shells: shellsCommand,
  ticket: ticketCommand,
  ui: uiCommand,
}
