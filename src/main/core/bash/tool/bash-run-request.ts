import { randomBytes } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { NetworkSettings } from '../../../../shared/settings'
import { autoRunEnv } from '../../env/auto-run-env'
import { buildChildEnv } from '../../env/child-env'
import type { EnvRecord } from '../../env/env-keys'
import type { ExecutionRequest } from '../../exec/types'
import type { ExecutionSandbox } from '../../sandbox/types'
import { bashToolExecutionCommand, composeBashScript } from '../../shell/bash-command-line'
import { createCwdCaptureFile } from '../../shell/cwd-capture'
import type { ShellSnapshotService } from '../../shell/snapshot-service'
import type { ShellSelection } from '../../shell/types'

/**
 * The execution request for one Bash tool command (seed 003, createExecutionRequest): the session's
 * shell with its snapshot (or as a login shell), the child env, the cwd capture, and file output.
 */

export interface BashRequestOptions {
  command: string
  cwd: string
  timeoutMs: number
  /** SHELLGATE_HOME: output and cwd files live under <dataDir>/exec. */
  dataDir: string
  /** The sanitised runtime env (sanitizeEntryEnv), never the raw process env. */
  runtimeEnv: Readonly<EnvRecord>
  network?: NetworkSettings
  platform: NodeJS.Platform
  shell: ShellSelection
  /** Null runs the shell as a login shell every time. */
  snapshots: ShellSnapshotService | null
  signal?: AbortSignal
  /**
   * Picks the OS sandbox once the executor's own files are known (they must be re-bound inside a
   * hidden SHELLGATE_HOME); undefined runs unsandboxed. It may throw to refuse the run (strict mode).
   */
  sandbox?: (files: { snapshotPath: string | null; cwdFile: string }) => Promise<ExecutionSandbox | undefined>
  /** Credential-like variable names the user lets through (environment.passThrough). */
  passThrough?: readonly string[]
  /** Runs without asking (read-only verdict): the env goes through autoRunEnv. */
  autoRun?: boolean
}

export interface BashRequest {
  request: ExecutionRequest
  outputPath: string
  cwdFile: string
  /** Why the snapshot was not used, or why a network setting could not be applied. */
  notes: string[]
}

export async function buildBashRequest(options: BashRequestOptions): Promise<BashRequest> {
  const notes: string[] = []
  const child = buildChildEnv(options.runtimeEnv, {
    network: options.network,
    platform: options.platform,
    overlay: options.shell.envOverlay,
    passThrough: options.passThrough,
  })
  notes.push(...child.problems.map((problem) => problem.message))
  const snapshotPath = await snapshotFor(options, child.env, notes)
  const cwdFile = await createCwdCaptureFile(options.dataDir)
  const outputDir = join(options.dataDir, 'exec', 'bash-output')
  // 0700: the output may hold anything the command printed.
  await mkdir(outputDir, { recursive: true, mode: 0o700 })
  const outputPath = join(outputDir, `bash-${Date.now()}-${randomBytes(6).toString('hex')}-stdout.log`)
  const sandbox = await options.sandbox?.({ snapshotPath, cwdFile })
  const script = composeBashScript({
    shell: options.shell,
    snapshotPath,
    startupScriptPath: null,
    command: options.command,
    cwdFile,
  })
  return {
    request: {
      command: bashToolExecutionCommand(options.shell, script, snapshotPath === null),
      cwd: options.cwd,
      // After the snapshot, which is generated with the env an approved command gets.
      env: options.autoRun ? autoRunEnv(child.env, options.platform).env : child.env,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      output: { mode: 'file', outputPath },
      ...(sandbox ? { sandbox } : {}),
    },
    outputPath,
    cwdFile,
    notes,
  }
}

async function snapshotFor(
  options: BashRequestOptions,
  env: EnvRecord,
  notes: string[],
): Promise<string | null> {
  const { shell, snapshots } = options
  if (
    snapshots === null ||
    (shell.dialect !== 'bash' && shell.dialect !== 'zsh' && shell.dialect !== 'git-bash')
  )
    return null
  const snapshot = await snapshots.ensureShellSnapshot({ dialect: shell.dialect, path: shell.path }, env)
  if (snapshot.status === 'ready') return snapshot.path
  notes.push(`shell snapshot unavailable (${snapshot.reason}); ran as a login shell`)
  return null
}
