import {
  BoundedCollector,
  INLINE_OUTPUT_LIMIT_BYTES,
  PERSISTED_OUTPUT_LIMIT_BYTES,
} from './bounded-collector'
import { runChild } from './child-lifecycle'
import type { ChildOutput } from './child-run-types'
import { fileResult, notStarted, pipeResult } from './execution-result'
import { OUTPUT_FILE_CAP_BYTES, OutputFile } from './file-output'
import { type ChcpRunner, decodeWindowsOutput, resolveWindowsOutputEncoding } from './output-encoding'
import { newRunId, RUN_MARKER_ENV_KEY } from './run-marker'
import { ExecInputError } from './exec-input-error'
import { nodeSpawn, type SpawnFunction } from './spawn-function'
import { ProgramNotFoundError, planSpawn } from './spawn-plan'
import { loadPty, ptySpawnFunction } from './pty-spawn'
import type {
  ExecutionHooks,
  ExecutionPort,
  ExecutionRequest,
  ExecutionResult,
  FileOutputOptions,
  PipeOutputOptions,
  SpawnErrorInfo,
} from './types'
import { decodeUtf8Cut } from './utf8'
import { validateRequest } from './validate-request'
import { mergeWindowsEnvKeys, setEnvValue } from './windows-env'
import type { IsFile } from './windows-executable'

/** seed 000: a request without a timeout gets 5 minutes. */
export const DEFAULT_TIMEOUT_MS = 300_000

export interface ExecutionPortOptions {
  /** Default process.platform; win32 on Linux exercises the Windows spawn plan with a recording spawnFile. */
  platform?: NodeJS.Platform
  spawnFile?: SpawnFunction
  /** win32 PATH lookup; default: stat the candidate. */
  isFile?: IsFile
  /** The host environment: SHELLGATE_WINDOWS_OUTPUT_ENCODING is read from here (default process.env). */
  hostEnv?: Record<string, string | undefined>
  /** win32 encoding guess for code page 65001 (default: the Intl locale). */
  locale?: string
  /** win32: how the code page is queried (default `chcp.com` with a 1 s timeout). */
  chcp?: ChcpRunner
  /** Cadence of onResourceSample for posix-bash commands; default 15 s (seed 000). */
  resourceSampleIntervalMs?: number
}

export function createExecutionPort(options: ExecutionPortOptions = {}): ExecutionPort {
  const platform = options.platform ?? process.platform
  const spawnFile = options.spawnFile ?? nodeSpawn
  let windowsEncoding: Promise<string | null> | null = null
  // Only a budget cut may split a character; anything else the child printed is decoded as is.
  // POSIX needs nothing to decode, so its result is built without a promise hop (issue 24.4).
  const decoderFor = async (): Promise<OutputDecoder> => {
    windowsEncoding ??= resolveWindowsOutputEncoding({
      env: options.hostEnv ?? process.env,
      locale: options.locale ?? Intl.DateTimeFormat().resolvedOptions().locale,
      chcp: options.chcp,
    })
    const encoding = await windowsEncoding
    return (bytes, cut) => decodeWindowsOutput(bytes, encoding, cut)
  }

  // Kills still running, the background ones of Bash file mode among them.
  const kills = new Set<Promise<unknown>>()
  const trackKill = (kill: Promise<unknown>) => {
    kills.add(kill)
    const forget = () => kills.delete(kill)
    kill.then(forget, forget)
  }

  return {
    async whenQuiet() {
      while (kills.size > 0) await Promise.allSettled([...kills])
    },
    async execute(request: ExecutionRequest, hooks: ExecutionHooks = {}): Promise<ExecutionResult> {
      validateRequest(request)
      const runId = newRunId()
      const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS
      const output = request.output ?? { mode: 'pipe' }
      const label = request.command.mode === 'argv' ? request.command.file : 'shell'
      // seed 004: an already-aborted request has no side effects at all, not even a short-lived child.
      if (request.signal?.aborted) return notStarted(runId, { cancelled: true })

      const requested =
        platform === 'win32'
          ? mergeWindowsEnvKeys(request.env, options.hostEnv ?? process.env)
          : { ...request.env }
      const env = setEnvValue(requested, RUN_MARKER_ENV_KEY, runId, platform)
      let plan: ReturnType<typeof planSpawn>
      try {
        plan = planSpawn(request.command, {
          platform,
          env,
          cwd: request.cwd,
          isFile: options.isFile,
          sandbox: request.sandbox,
        })
      } catch (error) {
        if (!(error instanceof ProgramNotFoundError)) throw error
        return notStarted(runId, { spawnError: { code: error.code, message: error.message }, label })
      }
      if (request.terminal && platform === 'win32') {
        throw new ExecInputError('terminal runs are not supported on Windows yet')
      }
      // Before the output file exists: a module that cannot load must leave nothing behind.
      const pty = request.terminal ? await loadPty() : null
      const opened = openOutput(output, runId, platform)
      if ('spawnError' in opened) return notStarted(runId, { spawnError: opened.spawnError, label })
      let spawnChild: SpawnFunction | undefined
      if (opened.output.kind === 'file') {
        const { file } = opened.output
        const ref = { path: file.path, identity: file.identity }
        hooks.onOutputFile?.(ref)
        if (pty && request.terminal) {
          spawnChild = ptySpawnFunction({
            pty,
            terminal: request.terminal,
            output: ref,
            platform,
            onTerminal: hooks.onTerminal,
          })
        }
      }

      const outcome = await runChild({
        plan,
        cwd: request.cwd,
        env,
        hostEnv: options.hostEnv,
        runId,
        platform,
        spawnFile,
        spawnChild,
        output: opened.output,
        timeoutMs,
        signal: request.signal,
        profile: isBashProfile(request) ? 'bash' : 'plain',
        hooks,
        sampleResources: isBashProfile(request),
        resourceSampleIntervalMs: options.resourceSampleIntervalMs,
        trackKill,
      })
      if (opened.output.kind === 'file') {
        return fileResult(outcome, opened.output.file, output as FileOutputOptions, {
          runId,
          timeoutMs,
          label,
        })
      }
      return pipeResult(outcome, opened.output.collector, output as PipeOutputOptions, {
        runId,
        timeoutMs,
        label,
        decode: platform === 'win32' ? await decoderFor() : decodePosixOutput,
      })
    },
  }
}

type OutputDecoder = (bytes: Buffer, cut: boolean) => string

const decodePosixOutput: OutputDecoder = (bytes, cut) => (cut ? decodeUtf8Cut(bytes) : bytes.toString('utf8'))

function isBashProfile(request: ExecutionRequest): boolean {
  return request.command.mode === 'shell' && request.command.shellProfile === 'posix-bash'
}

type OpenedOutput = { output: ChildOutput } | { spawnError: SpawnErrorInfo }

function openOutput(
  output: PipeOutputOptions | FileOutputOptions,
  runId: string,
  platform: NodeJS.Platform,
): OpenedOutput {
  if (output.mode === 'pipe') {
    const collector = new BoundedCollector({
      inlineLimitBytes: output.inlineLimitBytes ?? INLINE_OUTPUT_LIMIT_BYTES,
      persist: output.persistDir
        ? {
            dir: output.persistDir,
            runId,
            limitBytes: output.persistLimitBytes ?? PERSISTED_OUTPUT_LIMIT_BYTES,
          }
        : undefined,
    })
    return { output: { kind: 'pipe', collector, onOutputLimit: output.onOutputLimit ?? 'truncate' } }
  }
  try {
    const file = OutputFile.open(output.outputPath, platform)
    return { output: { kind: 'file', file, capBytes: output.capBytes ?? OUTPUT_FILE_CAP_BYTES } }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EOPEN'
    const why = code === 'ELOOP' ? 'it is a symlink, which is never followed' : (error as Error).message
    return { spawnError: { code, message: `cannot open the output file ${output.outputPath}: ${why}` } }
  }
}
