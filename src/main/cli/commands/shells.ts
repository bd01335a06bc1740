import { resolveShellgateHome } from '../../core/paths'
import { openSettingsStore } from '../../core/settings/settings-store'
import { discoverShells } from '../../core/shell/discover'
import { SHELL_DISPLAY_NAMES } from '../../core/shell/types'
import { parseCommandArgs } from '../args'
import type { CliCommand } from '../command'
import { UsageError } from '../usage-error'

const USAGE = [
  'Usage: shellgate shells [--json]',
  '',
  '  The shells the Bash tool could use here and the one a new session would get, with why',
  '  (the shell setting in SHELLGATE_HOME/settings.json counts).',
  '  --json  print {candidates: [{dialect, path, foundIn}], selection: {dialect, path, source, reason,',
  '          envOverlay}, problems}',
].join('\n')

export const shellsCommand: CliCommand = {
  usage: USAGE,
  async run(argv, io) {
    const { flags, positionals, rest } = parseCommandArgs('shells', argv, { json: { type: 'boolean' } })
    if (positionals.length > 0 || rest !== null) throw new UsageError('shellgate shells: takes no arguments')
    const store = await openSettingsStore({ home: resolveShellgateHome(io.env), workspace: io.cwd })
    const found = discoverShells({ platform: process.platform, env: io.env, settings: store.user().shell })
    for (const warning of store.warnings()) found.problems.push(`${warning.file}: ${warning.reason}`)
    if (flags.json) {
      io.stdout(`${JSON.stringify(found)}\n`)
      return 0
    }
    const { selection } = found
    io.stdout(`Selected: ${SHELL_DISPLAY_NAMES[selection.dialect]} ${selection.path} (${selection.reason})\n`)
    for (const candidate of found.candidates) {
      const mark = candidate.path === selection.path ? '*' : ' '
      io.stdout(`${mark} ${candidate.dialect.padEnd(8)} ${candidate.path}  [${candidate.foundIn}]\n`)
    }
    for (const problem of found.problems) io.stdout(`Problem: ${problem}\n`)
    return 0
  },
}
