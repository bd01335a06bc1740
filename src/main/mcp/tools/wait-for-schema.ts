import { z } from 'zod'
import { WAIT_FOR_MAX_CHARS } from '../../../shared/ipc/domains/tasks'
import { TASK_OUTPUT_MAX_TIMEOUT_MS } from '../../core/tasks/task-output'

/** `wait_for` as bash and task_output take it; the hub compiles it (RE2) and says what is wrong. */
export function waitForSchema(description: string) {
  return z
    .string()
    .min(1, 'wait_for is empty')
    .max(WAIT_FOR_MAX_CHARS, `wait_for is over ${WAIT_FOR_MAX_CHARS} characters`)
    .optional()
    .describe(description)
}

/** A wait's `timeout` as task_output and task_input take it: whole milliseconds, bounded. */
export function waitTimeoutSchema(description: string) {
  return z
    .number()
    .int('timeout must be whole milliseconds')
    .min(0, 'timeout must be ≥ 0')
    .max(TASK_OUTPUT_MAX_TIMEOUT_MS, `timeout is at most ${TASK_OUTPUT_MAX_TIMEOUT_MS} ms`)
    .optional()
    .describe(description)
}
