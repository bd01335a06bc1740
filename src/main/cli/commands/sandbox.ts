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
import { showCaches } from './sandbox-caches'

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
  '',
  "  caches: each workspace's own tool caches (npm, pip, cargo, go… of sandboxed runs), when each",
  "  was last used, and whether it goes: a workspace's caches are removed when its folder is gone",
  '  or no sandboxed run used them for 30 days (each time Shellgate starts, or now with --prune).',
  '  --prune remove those now',
  '  --json  print {caches: [{path, workspace, lastUsed, state}], removed?: [...], failed?: [{path, reason}]}',
].join('\n')

export const sandboxCommand: CliCommand = {
  usage: USAGE,
  async run(argv, io) {
    const { flags, positionals, rest } = parseCommandArgs('sandbox', argv, {
      json: { type: 'boolean' },
      profile: { type: 'string' },
      cwd: { type: 'string' },
      prune: { type: 'boolean' },
    })
    const subcommand = positionals[0]
    if (!isSubcommand(subcommand) || positionals.length > 1 || rest !== null) {
      throw new UsageError(
        'shellgate sandbox: the subcommands are `status`, `explain` and `caches` (shellgate sandbox status [--json], shellgate sandbox explain [--profile P] [--cwd DIR] [--json], shellgate sandbox caches [--prune] [--json])',
      )
    }
    if (subcommand !== 'explain' && (flags.profile !== undefined || flags.cwd !== undefined)) {
      throw new UsageError(
        `shellgate sandbox ${subcommand}: --profile and --cwd belong to \`sandbox explain\``,
      )
    }
    if (subcommand !== 'caches' && flags.prune !== undefined) {
      throw new UsageError(`shellgate sandbox ${subcommand}: --prune belongs to \`sandbox caches\``)
    }
    const dataDir = resolveShellgateHome(io.env)
    if (subcommand === 'caches')
      return showCaches(io, dataDir, { prune: flags.prune === true, json: flags.json === true })
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

const SUBCOMMANDS = ['status', 'explain', 'caches'] as const

function isSubcommand(word: string | undefined): word is (typeof SUBCOMMANDS)[number] {
  return SUBCOMMANDS.includes(word as (typeof SUBCOMMANDS)[number])
}
