/** Background tasks: the lifecycle that moves Bash commands to the background, and what reads and stops them. */
export { formatBackgroundedContent } from './background-content'
export {
  type BackgroundedTask,
  type BackgroundMode,
  type BackgroundRunOptions,
  type LifecycleOutcome,
  runWithBackgroundLifecycle,
} from './background-lifecycle'
export { isAutoBackgroundEligible } from './background-policy'
export { FOLLOW_INTERVAL_MS, followOutputFile, type OutputFollower, type OutputUpdate } from './follow-output'
export { followTaskOutput, type TaskOutputUpdate } from './follow-task-output'
export { type OutputSlice, readOutputHead, readOutputTail } from './output-file-range'
export { TaskError } from './task-error'
export {
  readTaskOutput,
  TASK_OUTPUT_DEFAULT_TIMEOUT_MS,
  TASK_OUTPUT_MAX_TIMEOUT_MS,
  TASK_OUTPUT_POLL_MS,
  type TaskOutputInput,
  type TaskOutputOptions,
  type TaskOutputResult,
} from './task-output'
export { prepareTaskOutputPath } from './task-output-path'
export { formatTaskNotification } from './task-notification'
export {
  FINISHED_TAIL_BYTES,
  RUNNING_HEAD_BYTES,
  resolveTaskMaxOutputLength,
  TASK_OUTPUT_DEFAULT_CHARS,
  TASK_OUTPUT_MAX_CHARS,
} from './task-output-projection'
export {
  createTaskRegistry,
  type StopResult,
  TASK_STOP_TIMEOUT_MS,
  type TaskRegistration,
  type TaskRegistry,
  UI_TAIL_BYTES,
} from './task-registry'
export { stopTask, type TaskStopInput } from './task-stop'
export type { TaskEvent, TaskInfo, TaskStatus, TaskStopper } from './task-types'
