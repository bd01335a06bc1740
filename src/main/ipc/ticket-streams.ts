import type { FileHandle } from 'node:fs/promises'
import { RpcError } from '../../shared/ipc/errors'
import { openOutputFileForRead } from '../core/exec/output-file-read'
import type { OutputFileRef } from '../core/exec/types'

/** One read returns at most this much; the runner asks again at once. */
const CHUNK_BYTES = 256 * 1024
/** How often a waiting read looks for new bytes. */
const POLL_MS = 20
/** A read of a run this connection does not have waits this long, so a runner never spins. */
const UNKNOWN_WAIT_MS = 50
/** A stream whose run ended is dropped this long after, read to the end or not. */
const DRAIN_GRACE_MS = 30_000

interface Stream {
  connectionId: string
  /** Opened once, when the executor created the file: later reads cannot be pointed elsewhere. */
  handle: Promise<FileHandle | null> | null
  ended: boolean
  /** Waiting reads, woken when the run ends (its last bytes are then read at once). */
  wake: (() => void)[]
}

/**
 * The output of ticket runs (issue 20), for the one connection running each: the runner prints it
 * as it comes, so the agent's shell tool streams it. The file is the call's own output file, held
 * open from the moment the executor created it (no path is opened again).
 */
export interface TicketStreams {
  open(callId: string, connectionId: string): void
  attach(callId: string, file: OutputFileRef, platform: NodeJS.Platform): void
  end(callId: string): void
  read(
    callId: string,
    connectionId: string,
    fromByte: number,
    waitMs: number,
    signal: AbortSignal,
  ): Promise<{ base64: string; nextByte: number; started: boolean }>
}

export function createTicketStreams(): TicketStreams {
  const streams = new Map<string, Stream>()
  const drop = (callId: string) => {
    const stream = streams.get(callId)
    streams.delete(callId)
    void stream?.handle?.then((handle) => handle?.close()).catch(() => undefined)
  }
  const readAt = async (stream: Stream, fromByte: number) => {
    const handle = await stream.handle
    if (!handle) return null
    const buffer = Buffer.alloc(CHUNK_BYTES)
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, fromByte)
    return buffer.subarray(0, bytesRead)
  }
  return {
    open(callId, connectionId) {
      if (streams.has(callId))
        throw new RpcError('invalid_input', `hooks.runTicket: call id "${callId}" is already used`)
      streams.set(callId, { connectionId, handle: null, ended: false, wake: [] })
    },
    attach(callId, file, platform) {
      const stream = streams.get(callId)
      if (!stream || stream.handle) return
      stream.handle = openOutputFileForRead(file.path, file.identity, platform).catch(() => null)
    },
    end(callId) {
      const stream = streams.get(callId)
      if (!stream) return
      stream.ended = true
      for (const wake of stream.wake.splice(0)) wake()
      setTimeout(() => drop(callId), DRAIN_GRACE_MS).unref()
    },
    async read(callId, connectionId, fromByte, waitMs, signal) {
      const found = streams.get(callId)
      // Not started yet, over, or another connection's: nothing to read (its id tells the caller nothing).
      if (!found || found.connectionId !== connectionId) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(waitMs, UNKNOWN_WAIT_MS)))
        return { base64: '', nextByte: fromByte, started: false }
      }
      const stream: Stream = found
      const until = Date.now() + waitMs
      for (;;) {
        const bytes = stream.handle ? await readAt(stream, fromByte) : null
        if (bytes && bytes.length > 0)
          return { base64: bytes.toString('base64'), nextByte: fromByte + bytes.length, started: true }
        if (stream.ended) {
          // Read to the end after the run: nothing more will come.
          drop(callId)
          return { base64: '', nextByte: fromByte, started: bytes !== null }
        }
        if (Date.now() >= until || signal.aborted)
          return { base64: '', nextByte: fromByte, started: bytes !== null }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, POLL_MS)
          function done() {
            clearTimeout(timer)
            stream.wake = stream.wake.filter((each) => each !== done)
            resolve()
          }
          stream.wake.push(done)
        })
      }
    },
  }
}
