import { homedir } from 'node:os'
import { createExecutionPort } from '../../core/exec'
import { resolveShellgateHome } from '../../core/paths'
import { createSandboxService } from '../../core/sandbox/sandbox-service'
import { openSettingsStore } from '../../core/settings/settings-store'
import { detectSandboxBackend } from '../../core/workbench/sandbox-probe'
import { parseCommandArgs } from '../args'
import type { CliCommand } from '../command'
import { UsageError } from '../usage-error'
import { resolveCwdFlag } from '../command-argument'
import { explainSandbox } from './sandbox-explain'

const USAGE = [
  'Usage: shellgate sandbox status [--json]',
  '       shellgate sandbox explain [--profile read-only|workspace-write] [--cwd DIR] [--json]',
  '',
  '  status: whether an OS sandbox can run here (it runs `true` in each profile to find out), the',
  '  sandbox setting in SHELLGATE_HOME/settings.json, and any bad entry in it.',
  '  --json  print {mode, network, backend: {platform, backend, path, available, profiles, message},',
  '          problems: [{code, field, entry, message}], summary}',
  '',
  '  explain: what a command started in DIR (default: here, as the workspace) can read, write and',
  '  not see, in each profile or the one named, and why each (the setting or the built-in rule).',
  '  Reads are denied by default; PATH is the one the toolchains are found from. Changes nothing.',
  '  --json  print {profiles: [{profile, readable, symlinks, emptyDirs, workspace, writable,',
  '          protected, reopened, restoredAfter, hidden, allowedSockets, leftOut}]}, each entry',
  '          {path, kind, why, source?}',
].join('\n')

export const sandboxCommand: CliCommand = {
  usage: USAGE,
  async run(argv, io) {
    const { flags, positionals, rest } = parseCommandArgs('sandbox', argv, {
      json: { type: 'boolean' },
      profile: { type: 'string' },
      cwd: { type: 'string' },
    })
    const subcommand = positionals[0]
    if ((subcommand !== 'status' && subcommand !== 'explain') || positionals.length > 1 || rest !== null) {
      throw new UsageError(
        'shellgate sandbox: the subcommands are `status` and `explain` (shellgate sandbox status [--json], shellgate sandbox explain [--profile P] [--cwd DIR] [--json])',
      )
    }
    if (subcommand === 'status' && (flags.profile !== undefined || flags.cwd !== undefined)) {
      throw new UsageError('shellgate sandbox status: --profile and --cwd belong to `sandbox explain`')
    }
    const dataDir = resolveShellgateHome(io.env)
    const cwd = subcommand === 'explain' ? resolveCwdFlag('sandbox explain', flags.cwd, io.cwd) : io.cwd
    const store = await openSettingsStore({ home: dataDir, workspace: cwd })
    const platform = process.platform
    const port = createExecutionPort({ platform })
    const service = createSandboxService({
      platform,
      home: io.env.HOME ?? homedir(),
      dataDir,
      detect: () => detectSandboxBackend(port, { platform }),
    })
    if (subcommand === 'explain') {
      return explainSandbox(io, service, store.user(), {
        profile: flags.profile,
        cwd,
        json: flags.json === true,
      })
    }
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
