import { readFileSync, readSync } from 'node:fs'
import type { IPty } from '@lydell/node-pty'

/** More than any terminal buffer holds: past it a live writer still holds the terminal. */
const MAX_DRAIN_BYTES = 1 << 20
const O_NONBLOCK = 0o4000

/** The parts of node-pty 1.1's UnixTerminal this reaches: its master descriptor and read stream. */
interface UnixTerminalInternals {
  _fd?: number
  _socket?: { destroy: (...args: unknown[]) => unknown }
}

/**
 * node-pty gives a child's terminal 200 ms after the child exits to reach end of file, then
 * destroys the read stream, and whatever the kernel still holds for the master is lost. A worker
 * stalled for those 200 ms (two busy cores, a long GC) loses the run's last line that way. So the
 * stream's destroy first reads the master to the end itself: once the child's side is closed the
 * kernel hands over everything it buffered and then EIO; if another process still holds the
 * terminal, the read stops at EAGAIN, as before. Only on a descriptor the kernel says is
 * non-blocking, so the read can never hang the main process; elsewhere (macOS, Windows' ConPTY)
 * nothing changes.
 */
export function drainBeforeDestroy(
  term: IPty,
  onChunk: (chunk: Buffer) => void,
  platform: NodeJS.Platform,
): void {
  const internals = term as unknown as UnixTerminalInternals
  const socket = internals._socket
  const fd = internals._fd
  if (platform !== 'linux' || !socket || typeof fd !== 'number' || !isNonBlocking(fd)) return
  const destroy = socket.destroy.bind(socket)
  // Once only: after the first destroy the descriptor is closed, and its number may already name
  // some other file of ours.
  let drained = false
  socket.destroy = (...args: unknown[]) => {
    if (!drained) {
      drained = true
      for (const chunk of readToEnd(fd)) onChunk(chunk)
    }
    return destroy(...args)
  }
}

function readToEnd(fd: number): Buffer[] {
  const chunks: Buffer[] = []
  const buffer = Buffer.alloc(64 * 1024)
  let total = 0
  while (total < MAX_DRAIN_BYTES) {
    let count: number
    try {
      count = readSync(fd, buffer, 0, buffer.length, null)
    } catch {
      break // EIO: the child's side is closed and read to the end; EAGAIN: someone still holds it.
    }
    if (count === 0) break
    chunks.push(Buffer.from(buffer.subarray(0, count)))
    total += count
  }
  return chunks
}

function isNonBlocking(fd: number): boolean {
  try {
    const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))
    return flags !== null && (Number.parseInt(flags[1], 8) & O_NONBLOCK) !== 0
  } catch {
    return false
  }
}
