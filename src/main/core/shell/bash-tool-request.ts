import type { NetworkSettings } from '../../../shared/settings'
import { autoRunEnv } from '../env/auto-run-env'
import { buildChildEnv } from '../env/child-env'
import type { EnvRecord } from '../env/env-keys'
import type { EnvProblem } from '../env/network-egress-env'
import type { ExecutionRequest } from '../exec/types'
import { bashToolExecutionCommand, composeBashScript } from './bash-command-line'
import { createCwdCaptureFile } from './cwd-capture'
import type { ShellSnapshot, ShellSnapshotService } from './snapshot-service'
import { writeStartupScript } from './startup-script'
import type { ShellSelection } from './types'

export interface BashToolRequestInput {
  /** The session's shell (fixed at session creation). */
  shell: ShellSelection
  /** Null: no snapshots (the command runs as a login shell). */
  snapshots: ShellSnapshotService | null
  /** The sanitised runtime env (with the sealed passthrough). */
  runtimeEnv: NodeJS.ProcessEnv | Readonly<EnvRecord>
  network?: NetworkSettings
  platform: NodeJS.Platform
  /** SHELLGATE_HOME. */
  dataDir: string
  command: string
  cwd: string
  /** Sourced before the command; stored content-hashed per session. */
  startupScript?: { sessionId: string; content: string } | null
  /** Default true: the final directory is written to `cwdFile` on exit 0. */
  captureCwd?: boolean
  /** Credential-like variable names the user lets through (environment.passThrough). */
  passThrough?: readonly string[]
  /**
   * The command runs without asking (its verdict is read-only): code-injection variables are
   * removed and git's program-running settings neutralised (autoRunEnv).
   */
  autoRun?: boolean
  /** The command runs on a terminal: the script turns job control on (composeBashScript). */
  terminal?: boolean
}

export interface BashToolRequest {
  /** Hand to ExecutionPort.execute() with the timeout, signal and output options of the call. */
  request: Pick<ExecutionRequest, 'command' | 'cwd' | 'env'>
  /** Pass to readCapturedCwd() after the run; null when no capture was asked for. */
  cwdFile: string | null
  /** Null when the shell has no snapshots (cmd, sh) or none were asked for. */
  snapshot: ShellSnapshot | null
  /** Settings that could not be applied to the env; show them, the command still runs. */
  envProblems: EnvProblem[]
}

/** Everything between "the model wants to run X" and the port: env, snapshot, script, cwd file. */
export async function prepareBashToolRequest(input: BashToolRequestInput): Promise<BashToolRequest> {
  const { shell } = input
  const { env, problems } = buildChildEnv(input.runtimeEnv, {
    network: input.network,
    platform: input.platform,
    overlay: shell.envOverlay,
    passThrough: input.passThrough,
  })
  const snapshotDialect =
    shell.dialect === 'bash' || shell.dialect === 'zsh' || shell.dialect === 'git-bash' ? shell.dialect : null
  const snapshot =
    input.snapshots && snapshotDialect
      ? await input.snapshots.ensureShellSnapshot({ dialect: snapshotDialect, path: shell.path }, env)
      : null
  const startupScriptPath = input.startupScript
    ? await writeStartupScript(input.dataDir, input.startupScript.sessionId, input.startupScript.content)
    : null
  const cwdFile = input.captureCwd === false ? null : await createCwdCaptureFile(input.dataDir)
  const snapshotPath = snapshot?.status === 'ready' ? snapshot.path : null
  const script = composeBashScript({
    shell,
    snapshotPath,
    startupScriptPath,
    command: input.command,
    cwdFile,
    jobControl: input.terminal === true,
  })
  return {
    request: {
      command: bashToolExecutionCommand(shell, script, runsAsLoginShell(snapshot), input.terminal === true),
      cwd: input.cwd,
      // After the snapshot: it is generated once per shell with the env an approved command gets.
      env: input.autoRun ? autoRunEnv(env, input.platform).env : env,
    },
    cwdFile,
    snapshot,
    envProblems: problems,
  }
}

/** No snapshot means a login shell, except after a generator timeout (see ShellSnapshot). */
export function runsAsLoginShell(snapshot: ShellSnapshot | null): boolean {
  if (snapshot === null) return true
  return snapshot.status === 'unavailable' && snapshot.loginFallback
}
