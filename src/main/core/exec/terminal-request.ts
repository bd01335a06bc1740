import { ExecInputError } from './exec-input-error'
import { assertTerminalSize } from './pty-spawn'
import type { ExecutionRequest } from './types'

/**
 * A terminal run writes the terminal's one stream to the Bash output file; pipe mode would need a
 * second, in-memory path for the same bytes, so it is refused rather than half supported.
 */
export function assertTerminalRequest(request: ExecutionRequest): void {
  assertTerminalSize(request.terminal!)
  if (request.output?.mode !== 'file') {
    throw new ExecInputError('a terminal run needs file output (output.mode "file")')
  }
}
