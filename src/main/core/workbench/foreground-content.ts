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
    currentCwd: session.cwd,
    inlineLimit: input.inlineLimit,
    platform: input.platform,
    keepOutputFile: true,
  })
  session.cwd = cwd.cwd
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
