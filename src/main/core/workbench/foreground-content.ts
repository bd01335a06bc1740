import type { BashCall } from '../../../shared/ipc/domains/bash'
import type { CommandVerdict } from '../bash/verdict'
import { decideCwdPolicy } from '../bash/tool/cwd-policy'
import { interpretExitCode } from '../bash/tool/exit-code-semantics'
import { createGhRateLimitNotifier } from '../bash/tool/gh-rate-limit'
import type { BashToolInput } from '../bash/tool/input-schema'
import { formatBashModelContent, type ModelContent } from '../bash/tool/model-content'
import { settleOutputFile } from '../bash/tool/output-file'
import type { ExecutionResult } from '../exec/types'
import { readCapturedCwd } from '../shell/cwd-capture'
import type { LiveSession } from './session-service'

/** One per process, as the seed has it: the hint is about the user's gh quota, not one session. */
const ghNotifier = createGhRateLimitNotifier()

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
 * starts. The output file is kept for the session's life (the UI shows it with its colours);
 * the model is told about the file only when the output was too long to show inline.
 */
export async function foregroundContent(input: ForegroundContentInput): Promise<BashCall> {
  const { result, session } = input
  const output = await settleOutputFile(input.outputPath, input.inlineLimit, true)
  const persistedPath = output.totalBytes > input.inlineLimit ? input.outputPath : null
  const captured = input.cwdFile ? await readCapturedCwd(input.cwdFile) : null
  const cwd = decideCwdPolicy({
    workspace: input.workspace,
    currentCwd: session.cwd,
    capturedCwd: captured,
    succeeded: result.status === 'completed',
    mainSession: true,
    platform: input.platform,
  })
  session.cwd = cwd.cwd
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
    },
    semantics: interpretExitCode(argvs.at(-1) ?? null, result.exitCode),
    cwdNote: cwd.note,
    ghHint: ghNotifier.hintFor(argvs, output.head),
  })
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
