import type { PermissionMode } from '../../../shared/settings'
import { resolveShellgateHome } from '../../core/paths'
import { connectToHub } from '../../hub/hub-client'
import { HubError } from '../../hub/hub-error'
import { integerFlag, parseCommandArgs } from '../args'
import { commandArgument, resolveCwdFlag } from '../command-argument'
import type { CliCommand } from '../command'
import { UsageError } from '../usage-error'
import type { ExecLocallyOptions } from './exec-local'
import { EXIT_NOT_RUN } from './exec-report'
import { execViaHub } from './exec-via-hub'

const MODES: readonly PermissionMode[] = ['build', 'plan', 'yolo']

const USAGE = [
  'Usage: shellgate exec [--json] [--cwd DIR] [--timeout MS] [--background] [--mode build|plan|yolo] -- <command>',
  '',
  '  The Bash tool path, headless: classify, decide with the mode and your rules, run in your shell.',
  '',
  '  --cwd DIR     where the command runs; also the workspace whose .shellgate/settings.json rules apply',
  '  --timeout MS  default 120000 (BASH_DEFAULT_TIMEOUT_MS), at most 600000 (BASH_MAX_TIMEOUT_MS); 0 = default',
  '  --mode M      build (default from settings): read-only runs, the rest asks; plan: the rest is denied;',
  '                yolo: everything runs (deny and ask rules still apply)',
  '  A command that needs approval is sent to the running Shellgate (the app or `shellgate serve`) and',
  '  exec waits for the person there; with no Shellgate running it is not run. exec never approves',
  '  anything itself.',
  '  --background  run as a background task: no timeout, output kept in its file; the JSON (with taskId)',
  '                is printed at once, then the CLI waits for the task; Ctrl+C stops it',
  '  --json        print {status, exitCode, exitSignal, stdout, stderr, truncated, outputPath?,',
  '                durationMs, decision, content}',
  '',
  `Exit code: the command's own; ${EXIT_NOT_RUN} when it was not run (the decision says why); 2 for bad input.`,
].join('\n')

/**
 * `shellgate exec`, with the path it takes when no hub runs given by the caller: the CLI's table
 * loads the whole Bash tool path then (exec-local.ts); the quick entry (src/main/hook-cli.ts),
 * which keeps that path out of its bundle, hands the run to the full CLI instead.
 */
export function makeExecCommand(runLocally: (options: ExecLocallyOptions) => Promise<number>): CliCommand {
  return { usage: USAGE, run: (argv, io) => runExec(argv, io, runLocally) }
}

async function runExec(
  argv: string[],
  io: Parameters<CliCommand['run']>[1],
  runLocally: (options: ExecLocallyOptions) => Promise<number>,
): Promise<number> {
  const { flags, positionals, rest } = parseCommandArgs('exec', argv, {
    json: { type: 'boolean' },
    cwd: { type: 'string' },
    timeout: { type: 'string' },
    background: { type: 'boolean' },
    mode: { type: 'string' },
  })
  const command = commandArgument('exec', positionals, rest)
  if (command.trim() === '') throw new UsageError('shellgate exec: the command is empty')
  if (flags.background && flags.timeout !== undefined) {
    throw new UsageError(
      'shellgate exec: --timeout does not apply to --background (background tasks have no timeout)',
    )
  }
  const requestedTimeout = integerFlag('exec', 'timeout', flags.timeout)
  const mode = flags.mode === undefined ? undefined : MODES.find((each) => each === flags.mode)
  if (flags.mode !== undefined && mode === undefined)
    throw new UsageError(`shellgate exec: --mode must be build, plan or yolo, got "${String(flags.mode)}"`)
  const cwd = resolveCwdFlag('exec', flags.cwd, io.cwd)
  const home = resolveShellgateHome(io.env)
  const platform = process.platform

  // One writer per home: while a hub runs, the command goes through it (see exec-via-hub.ts).
  const hub = await connectToHub({ home }).catch((error: unknown) => {
    if (error instanceof HubError) throw new UsageError(`shellgate exec: ${error.message} [${error.code}]`)
    throw error
  })
  if (hub) {
    try {
      if (flags.mode !== undefined) {
        throw new UsageError(
          'shellgate exec: a Shellgate is running for this home and decides with its own mode; approvals are answered in its UI (drop --mode)',
        )
      }
      return await execViaHub(hub, {
        command,
        cwd,
        ...(requestedTimeout === undefined ? {} : { timeout: requestedTimeout }),
        background: flags.background === true,
        json: flags.json === true,
        io,
      })
    } finally {
      // execViaHub waited for every answer it needs; the hub's side of the close is not one.
      hub.leave()
    }
  }

  // No hub: the whole Bash tool path runs here, loaded only now (issue 20: exec with a hub starts fast).
  return runLocally({
    command,
    cwd,
    home,
    platform,
    mode: mode ?? undefined,
    requestedTimeout,
    background: flags.background === true,
    json: flags.json === true,
    io,
  })
}
