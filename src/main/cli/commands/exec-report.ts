import type { PermissionDecision, summarizeDecision } from '../../core/permissions'

/** What `shellgate exec` prints and what its exit code is, in the local and the hub path alike. */

/** Exit code when the command was not run (denied, or approval needed): as a shell's "cannot execute". */
export const EXIT_NOT_RUN = 126

/** The `--json` shape of DESIGN.md (plus isError and the model-facing content when it ran). */
export interface ExecJson {
  status: string
  exitCode: number | null
  exitSignal: string | null
  stdout: string
  stderr: string
  truncated: boolean
  outputPath?: string
  durationMs: number
  taskId?: string
  isError?: boolean
  content?: string
  /** For the audit line only; never printed. */
  bytes?: number
}

export type DecisionJson = ReturnType<typeof summarizeDecision> & {
  nearMiss: PermissionDecision['nearMiss']
  suggestedRules: string[]
}

export function notRun(decision: PermissionDecision): ExecJson {
  return {
    status: decision.outcome === 'deny' ? 'denied' : 'approval_required',
    exitCode: null,
    exitSignal: null,
    stdout: '',
    stderr: '',
    truncated: false,
    durationMs: 0,
  }
}

export function report(
  io: { stdout(text: string): void; stderr(text: string): void },
  json: boolean,
  result: ExecJson,
  decision: DecisionJson,
): void {
  if (json) {
    io.stdout(`${JSON.stringify({ ...result, decision })}\n`)
    return
  }
  if (result.status === 'denied' || result.status === 'approval_required') {
    io.stderr(`shellgate exec: not run (${decision.outcome}): ${decision.reason}\n`)
    if (decision.nearMiss) io.stderr(`  almost matched: ${decision.nearMiss.explanation}\n`)
    if (decision.outcome === 'ask' && result.status === 'approval_required') {
      io.stderr(
        `  start Shellgate (the app, or \`shellgate serve\`) and run it again to approve it there, or allow it with a rule: ${decision.suggestedRules.join(', ')}\n`,
      )
    }
    return
  }
  io.stdout(result.stdout)
  if (result.stderr) io.stderr(result.stderr)
  if (result.outputPath)
    io.stderr(`shellgate exec: output over the inline limit; all of it is in ${result.outputPath}\n`)
  if (result.status !== 'completed' && result.status !== 'failed')
    io.stderr(`shellgate exec: ${result.status}\n`)
}

/** The command's exit code; the conventional shell codes when it has none. */
export function exitCodeOf(status: string, exitCode: number | null): number {
  if (exitCode !== null) return exitCode
  if (status === 'timed_out') return 124
  if (status === 'cancelled') return 130
  if (status === 'spawn_error') return 127
  return 1
}
