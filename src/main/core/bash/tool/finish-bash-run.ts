import { executorNotes } from '../../exec/executor-notes'
import type { ExecutionResult } from '../../exec/types'
import { readCapturedCwd } from '../../shell/cwd-capture'
import type { CommandVerdict } from '../verdict'
import { type CwdDecision, decideCwdPolicy } from './cwd-policy'
import { interpretExitCode } from './exit-code-semantics'
import { createGhRateLimitNotifier, type GhRateLimitNotifier } from './gh-rate-limit'
import { formatBashModelContent, type ModelContent } from './model-content'
import { type SettledOutput, settleOutputFile } from './output-file'

export interface FinishBashRunInput {
  result: ExecutionResult
  outputPath: string
  /** Null when the cwd was not captured. */
  cwdFile: string | null
  /** For exit-code semantics (the last command) and the gh hint. */
  verdict: CommandVerdict
  workspace: string
  /** The cwd the command started in. */
  currentCwd: string
  /** Bytes of output shown inline (BASH_MAX_OUTPUT_LENGTH). */
  inlineLimit: number
  platform: NodeJS.Platform
  /** Sub-agents never move the session's cwd. */
  mainSession?: boolean
  /** Keep the output file even when it fits inline (the app shows it with its colours). */
  keepOutputFile?: boolean
  ghNotifier?: GhRateLimitNotifier
}

export interface FinishedBashRun {
  output: SettledOutput
  cwd: CwdDecision
  content: ModelContent
}

/** One per process, as the seed has it: the hint is about the user's gh quota, not one caller. */
const processNotifier = createGhRateLimitNotifier()

/**
 * After a foreground Bash command (seed 003, 一次调用的路径): settle the output file, apply the cwd
 * policy, and format what the model sees. The CLI and the app share it, so both answer alike.
 */
export async function finishBashRun(input: FinishBashRunInput): Promise<FinishedBashRun> {
  const { result } = input
  const output = await settleOutputFile(
    input.outputPath,
    input.inlineLimit,
    input.keepOutputFile ?? false,
    result.outputIdentity,
    input.platform,
  )
  // The model hears of the file only when the output did not fit, whether or not it is kept.
  const persistedPath = output.totalBytes > input.inlineLimit ? input.outputPath : null
  const captured = input.cwdFile ? await readCapturedCwd(input.cwdFile) : null
  const cwd = decideCwdPolicy({
    workspace: input.workspace,
    currentCwd: input.currentCwd,
    capturedCwd: captured,
    succeeded: result.status === 'completed',
    mainSession: input.mainSession ?? true,
    platform: input.platform,
  })
  const argvs = input.verdict.parts.map((part) => part.argv)
  const content = formatBashModelContent({
    outcome: {
      status: result.status,
      exitCode: result.exitCode,
      head: output.head,
      totalBytes: output.totalBytes,
      persistedPath,
      binary: result.binary,
      errorMessage: result.errorMessage,
      diskFull: result.diskFull?.message ?? null,
      notes: [...(output.refused ? [output.refused] : []), ...executorNotes(result)],
    },
    semantics: interpretExitCode(argvs.at(-1) ?? null, result.exitCode),
    cwdNote: cwd.note,
    ghHint: (input.ghNotifier ?? processNotifier).hintFor(argvs, output.head),
  })
  return { output, cwd, content }
}
