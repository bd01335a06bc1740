import { homedir } from 'node:os'
import { createExecutionPort } from '../../core/exec'
import { resolveShellgateHome } from '../../core/paths'
import { createSandboxService } from '../../core/sandbox/sandbox-service'
import { openSettingsStore } from '../../core/settings/settings-store'
import { detectSandboxBackend } from '../../core/workbench/sandbox-probe'
import { parseCommandArgs } from '../args'
import type { CliCommand } from '../command'
import { UsageError } from '../usage-error'

const USAGE = [
  'Usage: shellgate sandbox status [--json]',
  '',
  '  Whether an OS sandbox can run here (it runs `true` in each profile to find out), the sandbox',
  '  setting in SHELLGATE_HOME/settings.json, and any bad entry in it.',
  '  --json  print {mode, network, backend: {platform, backend, path, available, profiles, message},',
  '          problems: [{code, field, entry, message}], summary}',
].join('\n')

export const sandboxCommand: CliCommand = {
  usage: USAGE,
  async run(argv, io) {
    const { flags, positionals, rest } = parseCommandArgs('sandbox', argv, { json: { type: 'boolean' } })
    if (positionals[0] !== 'status' || positionals.length > 1 || rest !== null) {
      throw new UsageError(
        'shellgate sandbox: the only subcommand is `status` (shellgate sandbox status [--json])',
      )
    }
    const dataDir = resolveShellgateHome(io.env)
    const store = await openSettingsStore({ home: dataDir, workspace: io.cwd })
    const platform = process.platform
    const port = createExecutionPort({ platform })
    const service = createSandboxService({
      platform,
      home: io.env.HOME ?? homedir(),
      dataDir,
      detect: () => detectSandboxBackend(port, { platform }),
    })
    const status = await service.status(store.user().sandbox)
    if (flags.json) {
      io.stdout(`${JSON.stringify(status)}\n`)
      return 0
    }
    io.stdout(`Sandbox: ${status.summary}\n`)
    io.stdout(`Backend: ${status.backend.message}\n`)
    for (const [profile, probe] of Object.entries(status.backend.profiles)) {
      io.stdout(`  ${profile.padEnd(16)} ${probe.ok ? 'works' : `does not work: ${probe.error}`}\n`)
    }
    io.stdout(`Mode: ${status.mode}   Network (workspace-write): ${status.network}\n`)
    for (const problem of status.problems) io.stdout(`Problem: ${problem.message}\n`)
    for (const warning of store.warnings()) io.stdout(`Problem: ${warning.file}: ${warning.reason}\n`)
    return 0
  },
}
