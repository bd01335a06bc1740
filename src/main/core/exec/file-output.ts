import { closeSync, constants, fchmodSync, fstatSync, openSync, readSync } from 'node:fs'
import { TAIL_BYTES } from './output-tail'
import type { FileIdentity } from './types'

/** seed 000: a Bash command's output file may grow to 5 GB before the tree is killed. */
export const OUTPUT_FILE_CAP_BYTES = 5 * 1000 ** 3
/**
 * The seed checks every 5 s; at 2 GB/s that overshoots the cap by 10 GB, so we check every second.
 */
export const OUTPUT_FILE_CHECK_INTERVAL_MS = 1_000

/** The one file a Bash command's stdout and stderr both point at. */
export class OutputFile {
  private closed = false

  private constructor(
    readonly path: string,
    readonly fd: number,
    /** The file created, by device and inode: a path swapped afterwards names another one. */
    readonly identity: FileIdentity,
  ) {}

  /**
   * Creates or truncates `path` with mode 0600. O_NOFOLLOW makes a symlink planted at the path fail
   * with ELOOP instead of redirecting the output (and the truncation) to the link's target.
   */
  static open(path: string, platform: NodeJS.Platform): OutputFile {
    const noFollow = platform === 'win32' ? 0 : (constants.O_NOFOLLOW ?? 0)
    const fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_TRUNC | noFollow, 0o600)
    // A FIFO or device planted at the path would hang the child or write where it must not.
    const stats = fstatSync(fd)
    if (!stats.isFile()) {
      closeSync(fd)
      throw Object.assign(new Error(`${path} is not a regular file`), { code: 'EINVAL' })
    }
    // An existing file keeps its old mode through O_CREAT; output may hold secrets, so tighten it.
    if (platform !== 'win32') fchmodSync(fd, 0o600)
    return new OutputFile(path, fd, { dev: stats.dev, ino: stats.ino })
  }

  size(): number {
    return this.closed ? 0 : fstatSync(this.fd).size
  }

  /** The last 4 KiB written so far. */
  tail(): Buffer {
    if (this.closed) return Buffer.alloc(0)
    const size = this.size()
    const length = Math.min(TAIL_BYTES, size)
    const buffer = Buffer.alloc(length)
    const read = readSync(this.fd, buffer, 0, length, size - length)
    return buffer.subarray(0, read)
  }

  /** The first 4 KiB, to tell binary output from text. */
  head(): Buffer {
    if (this.closed) return Buffer.alloc(0)
    const buffer = Buffer.alloc(TAIL_BYTES)
    return buffer.subarray(0, readSync(this.fd, buffer, 0, TAIL_BYTES, 0))
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    closeSync(this.fd)
  }
}
