import type { BashCall } from '../../../shared/ipc/domains/bash'
import { finishBashRun } from '../bash/tool/finish-bash-run'
import type { BashToolInput } from '../bash/tool/input-schema'
import type { ModelContent } from '../bash/tool/model-content'
import type { CommandVerdict } from '../bash/verdict'
import type { ExecutionResult } from '../exec/types'
import type { LiveSession } from './session-service'

export interface ForegroundContentInput {
  call: BashCall
  result: ExecutionResult
  verdict: CommandVerdict
  session: LiveSession
  cwdFile: string | null
  outputPath: string
  input: BashToolInput
  inlineLimit: number
  workspace: string
  platform: NodeJS.Platform
  started: number
  /**
   * A hook's ticket run: it started where the agent's shell is, and the session's cwd stays (the
   * agent's shell does not move either); where the command ended up is reported instead.
   */
  pinnedCwd?: { cwd: string; onEndCwd(cwd: string): void }
}

/**
 * A call that finished in the foreground: what the model sees, where the session's next command
 * starts. The output file is kept for the session's life (the UI shows it with its colours).
 */
export async function foregroundContent(input: ForegroundContentInput): Promise<BashCall> {
  const { result, session } = input
  const { output, cwd, content } = await finishBashRun({
    result,
    outputPath: input.outputPath,
    cwdFile: input.cwdFile,
    verdict: input.verdict,
    workspace: input.workspace,
    currentCwd: input.pinnedCwd?.cwd ?? session.cwd,
    inlineLimit: input.inlineLimit,
    platform: input.platform,
    keepOutputFile: true,
  })
  if (input.pinnedCwd) input.pinnedCwd.onEndCwd(cwd.cwd)
  else session.cwd = cwd.cwd
  return {
    ...input.call,
    status: result.status,
    exitCode: result.exitCode,
    exitSignal: result.exitSignal,
    durationMs: Date.now() - input.started,
    totalBytes: output.totalBytes,
    content: contentText(content),
    isError: content.isError,
    outputPath: input.outputPath,
    ...(result.outputIdentity ? { outputIdentity: result.outputIdentity } : {}),
  }
}

function contentText(content: ModelContent): string {
  return content.blocks
    .map((block) =>
      block.type === 'text'
        ? block.text
        : `[image: ${block.mediaType}, ${block.data.length} base64 characters]`,
    )
    .join('\n')
}
