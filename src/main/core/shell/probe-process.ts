import { runProcess } from '../exec'
import type { ProcessCommand, ProcessResult, RunProcessOptions } from '../exec/types'

/**
 * How shell probes (login-env capture, snapshot generation) start their shell: the execution
 * port's runProcess, which puts the shell in its own process group, keeps stdin on /dev/null and
 * kills the whole group on timeout. Injectable so a test can count or refuse runs.
 */
export type RunProbe = (command: ProcessCommand, options: RunProcessOptions) => Promise<ProcessResult>

export const runProbeProcess: RunProbe = runProcess
