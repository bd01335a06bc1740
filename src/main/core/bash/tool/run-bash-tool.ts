import type { ExecutionPort, ExecutionResult } from '../../exec/types'
import type { CommandVerdict } from '../verdict'
import { type BashRequestOptions, buildBashRequest } from './bash-run-request'
import type { CwdDecision } from './cwd-policy'
import { finishBashRun } from './finish-bash-run'
import type { GhRateLimitNotifier } from './gh-rate-limit'
import { isEmptyBashCommand, type ModelContent } from './model-content'
import type { SettledOutput } from './output-file'

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

/** Callers answer an empty command with EMPTY_COMMAND_CONTENT instead (isEmptyBashCommand); this refuses it. */
export async function runBashTool(options: BashToolRunOptions): Promise<BashToolRun> {
  if (isEmptyBashCommand(options.command))
    throw new Error('the command is empty; answer it with EMPTY_COMMAND_CONTENT')
  const { request, outputPath, cwdFile, notes } = await buildBashRequest(options)
  const result = await options.port.execute(request)
  const { output, cwd, content } = await finishBashRun({
    result,
    outputPath,
    cwdFile,
    verdict: options.verdict,
    workspace: options.workspace,
    currentCwd: options.cwd,
    inlineLimit: options.inlineLimit,
    platform: options.platform,
    mainSession: options.mainSession,
    ghNotifier: options.ghNotifier,
  })
  return { result, output, cwd, content, notes }
}
