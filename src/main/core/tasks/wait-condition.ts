import { RE2JS } from 're2js'
import { TaskError } from './task-error'

import { WAIT_FOR_MAX_CHARS } from '../../../shared/ipc/domains/tasks'

/**
 * What task_output and bash wait for (issue 23.2/23.3): a regular expression over the output, or a
 * TCP port that one of the task's processes listens on. Patterns run on RE2 (re2js), whose time
 * is linear in the input, so a pattern like `(a+)+$` on a megabyte of output cannot hang the hub
 * the way a backtracking engine would; lookarounds and backreferences are refused for that reason.
 */
export type WaitCondition =
  | { kind: 'pattern'; source: string; find(text: string): string | null }
  | { kind: 'port'; port: number }

export function parseWaitFor(text: string): WaitCondition {
  if (typeof text !== 'string' || text === '') throw invalid('wait_for is empty')
  if (text.length > WAIT_FOR_MAX_CHARS) throw invalid(`wait_for is over ${WAIT_FOR_MAX_CHARS} characters`)
  const port = /^port:(.*)$/.exec(text)
  if (port) {
    const number = Number(port[1])
    if (!/^\d{1,5}$/.test(port[1]!) || number < 1 || number > 65_535) {
      throw invalid(`wait_for "${text}": a port is a whole number from 1 to 65535, e.g. port:5173`)
    }
    return { kind: 'port', port: number }
  }
  let compiled: RE2JS
  try {
    // ^ and $ match at each line: output is read as lines, and a prompt is the end of one.
    compiled = RE2JS.compile(text, RE2JS.MULTILINE)
  } catch (error) {
    throw invalid(
      `wait_for is not a regular expression Shellgate can run (RE2 syntax: no lookaround or backreferences): ${(error as Error).message}`,
    )
  }
  return {
    kind: 'pattern',
    source: text,
    find(haystack) {
      const matcher = compiled.matcher(haystack)
      return matcher.find() ? matcher.group() : null
    },
  }
}

function invalid(message: string): TaskError {
  return new TaskError('invalid_input', message)
}
