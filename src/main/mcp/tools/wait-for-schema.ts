import { z } from 'zod'
import { WAIT_FOR_MAX_CHARS } from '../../../shared/ipc/domains/tasks'

/** `wait_for` as bash and task_output take it; the hub compiles it (RE2) and says what is wrong. */
export function waitForSchema(description: string) {
  return z
    .string()
    .min(1, 'wait_for is empty')
    .max(WAIT_FOR_MAX_CHARS, `wait_for is over ${WAIT_FOR_MAX_CHARS} characters`)
    .optional()
    .describe(description)
}
