import { homedir } from 'node:os'
import { applyConfigEdit } from '../../mcp/connect/apply-edit'
import { CONNECT_CLIENTS, type ConnectClient, clientSetup } from '../../mcp/connect/client-configs'
import { checkLauncher, installRoot, launcherFor, launcherText } from '../../mcp/connect/shellgate-launcher'
import { parseCommandArgs } from '../args'
import type { CliCommand } from '../command'
import { UsageError } from '../usage-error'

export const connectCommand: CliCommand = {
  usage: [
    'Usage: shellgate connect claude-code|codex|gemini|cursor [--write] [--json]',
    '',
    "  Prints the client's MCP server entry for `shellgate mcp`, its hook (`shellgate hook <client>`)",
    "  and the permission rule that lets it call Shellgate's tools without its own prompt. The command",
    '  written is `shellgate` when it is on PATH, else this install by its absolute path; --write first',
    '  runs it (`<command> --version`) and writes nothing when it does not start.',
    '  --write  edits those files: a backup first (<file>.shellgate-backup), atomic, idempotent; a file',
    '           it cannot parse is refused and left as it is.',
  ].join('\n'),
  async run(argv, io) {
    const { flags, positionals, rest } = parseCommandArgs('connect', argv, {
      write: { type: 'boolean' },
      json: { type: 'boolean' },
    })
    const [name, ...extra] = positionals
    if (!name || extra.length > 0 || rest || !(CONNECT_CLIENTS as readonly string[]).includes(name)) {
      throw new UsageError(
        `shellgate connect: expected one of ${CONNECT_CLIENTS.join(', ')}; got "${argv.join(' ')}"`,
      )
    }
    // The command the client will run: `shellgate` when it is on PATH, else this install by its absolute path.
    const launcher = launcherFor(io.env)
    const setup = clientSetup(name as ConnectClient, io.env, io.env.HOME || homedir(), launcher)
    if (!flags.write) {
      if (flags.json) {
        io.stdout(`${JSON.stringify(setup)}\n`)
        return 0
      }
      const lines = [`# ${setup.title}`]
      if (setup.command) lines.push('', 'Run:', `  ${setup.command}`)
      lines.push('', setup.command ? 'Or add to these files (shellgate connect --write does it):' : 'Add to:')
      for (const edit of setup.edits) {
        lines.push(
          '',
          `${edit.path}:`,
          edit.kind === 'json' ? JSON.stringify(edit.snippet, null, 2) : edit.block,
        )
      }
      lines.push('', ...setup.notes.map((note) => `- ${note}`), '')
      io.stdout(lines.join('\n'))
      return 0
    }
    // Never write a command that would not start: the client would fail with nothing but "Failed to connect".
    const started = await checkLauncher(launcher, io.env)
    if (!started.ok) {
      io.stderr(
        `shellgate connect: nothing written: ${started.reason}. Build Shellgate (npm install) or put it on PATH (npm link), then run this again.\n`,
      )
      return 1
    }
    if (!launcher.onPath && !flags.json)
      io.stdout(
        `shellgate is not on PATH, so the configs name this install: ${launcherText(launcher)} (\`npm link\` in ${installRoot()} puts shellgate on PATH)\n`,
      )
    let refused = false
    const outcomes = []
    for (const edit of setup.edits) {
      const outcome = await applyConfigEdit(edit)
      outcomes.push(outcome)
      if (outcome.kind === 'refused') {
        refused = true
        io.stderr(`shellgate connect: left ${outcome.path} alone: ${outcome.reason}\n`)
      } else if (!flags.json) {
        io.stdout(
          outcome.kind === 'unchanged'
            ? `${outcome.path}: already connected, unchanged\n`
            : `${outcome.path}: written${outcome.backup ? ` (backup: ${outcome.backup})` : ''}\n`,
        )
      }
    }
    if (flags.json) io.stdout(`${JSON.stringify({ client: name, outcomes })}\n`)
    else for (const note of setup.notes) io.stdout(`- ${note}\n`)
    return refused ? 1 : 0
  },
}
