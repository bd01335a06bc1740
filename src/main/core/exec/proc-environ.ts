import { closeSync, openSync, readSync, statSync } from 'node:fs'

/**
 * The look after every exit reads the environ of each pid handed out since the run's root. On a
 * busy machine most of those are other programs' short-lived processes, already gone: a throwing
 * open costs far more than the syscall (Node builds an Error with a stack for each), and
 * readFileSync allocates 64 KiB per file. So a gone pid is told by a stat that does not throw,
 * and every file is read into one kept buffer (issue 24.4).
 */
const READ_CHUNK_BYTES = 64 * 1024
let buffer = Buffer.alloc(READ_CHUNK_BYTES)

/**
 * What /proc/PID/environ says of `entry`, a whole NUL-delimited entry (`KEY=value`, so neither a
 * longer value nor another key matches by prefix):
 * - `holds`, `lacks`: read and answered; `lacks` too when the process is gone or not ours;
 * - `empty`: the file read as nothing. A kernel thread, a process started with no environment
 *   (`env -i`), or one caught inside execve: between the old memory's release and the new stack's
 *   setup the kernel has no environment to show (measured here: about 1 % of reads of a process
 *   that execs in a loop). Only a second look can tell which.
 */
export type EnvironAnswer = 'holds' | 'lacks' | 'empty'

export function environAnswer(pid: number, entry: string): EnvironAnswer {
  const path = `/proc/${pid}/environ`
  const needle = needleFor(entry)
  if (buffer.length < READ_CHUNK_BYTES + needle.length)
    buffer = Buffer.alloc(READ_CHUNK_BYTES + needle.length)
  let fd: number
  try {
    if (!statSync(path, { throwIfNoEntry: false })) return 'lacks'
    fd = openSync(path, 'r')
  } catch {
    return 'lacks' // exiting (ESRCH), gone since the stat, or EACCES: none is one of our children
  }
  try {
    return scan(fd, needle)
  } catch {
    return 'lacks'
  } finally {
    closeSync(fd)
  }
}

// One look asks about many pids with the same entry: build its bytes once.
let lastEntry = ''
let lastNeedle = Buffer.alloc(0)

function needleFor(entry: string): Buffer {
  if (entry !== lastEntry) {
    lastEntry = entry
    lastNeedle = Buffer.from(`\0${entry}\0`)
  }
  return lastNeedle
}

/** Reads the file in chunks; each chunk starts with the tail of the one before, so no match is split. */
function scan(fd: number, needle: Buffer): EnvironAnswer {
  // A leading NUL stands for the start of the file, so the first entry matches like the others.
  buffer[0] = 0
  let carried = 1
  for (let first = true; ; first = false) {
    const read = readSync(fd, buffer, carried, READ_CHUNK_BYTES, null)
    const filled = carried + read
    if (read === 0) {
      if (first) return 'empty'
      // The last entry ends at end of file, not at a NUL: give it one.
      buffer[filled] = 0
      return buffer.subarray(0, filled + 1).includes(needle) ? 'holds' : 'lacks'
    }
    if (buffer.subarray(0, filled).includes(needle)) return 'holds'
    carried = Math.min(needle.length - 1, filled)
    buffer.copy(buffer, 0, filled - carried, filled)
  }
}
