import type { TypedClient } from '../../shared/ipc/client'
import type { ShellgateContract } from '../../shared/ipc/contract'
import { stripAnsi } from '../core/bash/tool/strip-ansi'

/** A client repaints on every notification; once a second is live enough and costs it nothing. */
export const PROGRESS_MIN_INTERVAL_MS = 1_000
const LAST_LINE_MAX_CHARS = 200

/**
 * Turns the hub's bash.progress events for one call into MCP progress: elapsed time, bytes and
 * the last line, strictly increasing (the spec requires it) and at most one per interval.
 * Returns the unsubscribe.
 */
export function reportCallProgress(
  client: TypedClient<ShellgateContract>,
  callId: string,
  send: (update: { progress: number; message: string }) => void,
  now: () => number = Date.now,
): () => void {
  let last = 0
  let sentAt = Number.NEGATIVE_INFINITY
  return client.on('bash.progress', (event) => {
    if (event.callId !== callId) return
    const at = now()
    if (at - sentAt < PROGRESS_MIN_INTERVAL_MS) return
    const progress = Math.max(last + 1, Math.round(event.elapsedMs))
    last = progress
    sentAt = at
    send({ progress, message: describeProgress(event.elapsedMs, event.totalBytes, event.tail) })
  })
}

export function describeProgress(elapsedMs: number, bytes: number, tail: string): string {
  const lastLine =
    stripAnsi(tail)
      .split(/\r?\n|\r/)
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .at(-1) ?? ''
  const clipped =
    lastLine.length > LAST_LINE_MAX_CHARS ? `${lastLine.slice(0, LAST_LINE_MAX_CHARS)}…` : lastLine
  const head = `running ${Math.floor(elapsedMs / 1000)}s, ${bytes} bytes of output`
  return clipped ? `${head}: ${clipped}` : head
}
