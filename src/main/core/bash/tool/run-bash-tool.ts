import type { ExecutionPort, ExecutionResult } from '../../exec/types'
import { readCapturedCwd } from '../../shell/cwd-capture'
import type { CommandVerdict } from '../verdict'
import { type BashRequestOptions, buildBashRequest } from './bash-run-request'
import { type CwdDecision, decideCwdPolicy } from './cwd-policy'
import { interpretExitCode } from './exit-code-semantics'
import { createGhRateLimitNotifier, type GhRateLimitNotifier } from './gh-rate-limit'
import { formatBashModelContent, isEmptyBashCommand, type ModelContent } from './model-content'
import { type SettledOutput, settleOutputFile } from './output-file'

/**
 * One foreground Bash tool command, after the permission decision: build the request, run it
 * through the execution port, settle the output file, apply the cwd policy, and format what the
 * model sees (seed 003, 一次调用的路径).
 */

export interface BashToolRunOptions extends BashRequestOptions {
  port: ExecutionPort
  /** For exit-code semantics (the last command) and the gh hint. */
  verdict: CommandVerdict
  workspace: string
  /** Bytes of output shown inline (BASH_MAX_OUTPUT_LENGTH). */
  inlineLimit: number
  /** Sub-agents never move the session's cwd. */
  mainSession?: boolean
  ghNotifier?: GhRateLimitNotifier
}

export interface BashToolRun {
  result: ExecutionResult
  output: SettledOutput
  cwd: CwdDecision
  content: ModelContent
  /** Problems worth showing the user (snapshot fallback, a bad proxy setting). */
  notes: string[]
}

const processNotifier = createGhRateLimitNotifier()

/** Callers answer an empty command with EMPTY_COMMAND_CONTENT instead (isEmptyBashCommand); this refuses it. */
export async function runBashTool(options: BashToolRunOptions): Promise<BashToolRun> {
  if (isEmptyBashCommand(options.command))
    throw new Error('the command is empty; answer it with EMPTY_COMMAND_CONTENT')
  const { request, outputPath, cwdFile, notes } = await buildBashRequest(options)
  const result = await options.port.execute(request)
  const output = await settleOutputFile(outputPath, options.inlineLimit)
  const captured = await readCapturedCwd(cwdFile)
  const cwd = decideCwdPolicy({
    workspace: options.workspace,
    currentCwd: options.cwd,
    capturedCwd: captured,
    succeeded: result.status === 'completed',
    mainSession: options.mainSession ?? true,
    platform: options.platform,
  })
  const argvs = options.verdict.parts.map((part) => part.argv)
  const content = formatBashModelContent({
    outcome: {
      status: result.status,
      exitCode: result.exitCode,
      head: output.head,
      totalBytes: output.totalBytes,
      persistedPath: output.persistedPath,
      binary: result.binary,
      errorMessage: result.errorMessage,
      diskFull: result.diskFull?.message ?? null,
    },
    semantics: interpretExitCode(argvs.at(-1) ?? null, result.exitCode),
    cwdNote: cwd.note,
    ghHint: (options.ghNotifier ?? processNotifier).hintFor(argvs, output.head),
  })
  return { result, output, cwd, content, notes }
}
