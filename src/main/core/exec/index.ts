/** The execution port: the only way Shellgate starts processes. */
export { ExecInputError } from './exec-input-error'
export { createExecutionPort, DEFAULT_TIMEOUT_MS, type ExecutionPortOptions } from './execution-port'
export {
  BASH_TERM_GRACE_MS,
  type KillProcessTreeOptions,
  type KillTreeReport,
  killProcessTree,
  PLAIN_TERM_GRACE_MS,
  type TerminationProfile,
} from './kill-tree'
export { type GroupUsage, probeProcessGroup } from './resource-probe'
export { RUN_MARKER_ENV_KEY } from './run-marker'
export { runProcess } from './run-process'
export type * from './types'
