import { type ChildProcess, execFile, spawn } from 'node:child_process'
import type { TerminalMode } from './terminal-types'

/** A mode read that has not answered by then is unknown, never a guess. */
export const TERMINAL_MODE_TIMEOUT_MS = 1_000

export type ExecFileFunction = (
  file: string,
  args: string[],
  options: { env: Record<string, string>; timeout: number },
  callback: (error: Error | null, stdout: string) => void,
) => void

const nodeExecFile: ExecFileFunction = (file, args, options, callback) => {
  execFile(file, args, options, (error, stdout) => callback(error, String(stdout)))
}

/** Only a terminal device is ever opened by the reader: Linux's and macOS's pty slaves. */
const TERMINAL_DEVICE = /^\/dev\/(pts\/\d+|ttys\d+)$/

/**
 * Node has no tcgetattr. One long-lived Perl (in every Linux's perl-base and in macOS) answers
 * each device path with its ECHO and ICANON flags, in well under a millisecond; a new `stty`
 * per input costs several (issue 23's round trip is ≤ 10 ms). The device is opened O_NOCTTY, so
 * the reader never takes it as its controlling terminal.
 */
const READER_SCRIPT = [
  'use POSIX qw(:termios_h :fcntl_h); $| = 1;',
  'while (my $path = <STDIN>) { chomp $path; my $t = POSIX::Termios->new; my $fd = POSIX::open($path, O_RDONLY | O_NOCTTY | O_NONBLOCK);',
  'if (defined $fd && $t->getattr($fd)) { my $l = $t->getlflag; print((($l & ECHO) ? 1 : 0), " ", (($l & ICANON) ? 1 : 0), "\\n") } else { print "?\\n" }',
  'POSIX::close($fd) if defined $fd; }',
].join(' ')

export interface TerminalModeReader {
  read(devicePath: string): Promise<TerminalMode | null>
}

/**
 * Reads terminal modes through the Perl reader, started on first use and restarted if it dies;
 * where it cannot start, each read asks `stty -a` instead (Linux names the device with -F, macOS
 * with -f). Windows has no termios: always unknown.
 */
export function createTerminalModeReader(
  platform: NodeJS.Platform,
  options: { perlPath?: string; execFile?: ExecFileFunction } = {},
): TerminalModeReader {
  let helper: ChildProcess | null = null
  let usable = platform !== 'win32'
  let buffered = ''
  const run = options.execFile ?? nodeExecFile
  const waiting: Array<{ device: string; answer: (mode: TerminalMode | null) => void }> = []

  const stop = (child: ChildProcess) => {
    if (helper === child) helper = null
    // Reads the reader took but never answered: stty answers them where there is no Perl at all.
    for (const { device, answer } of waiting.splice(0)) {
      if (usable) answer(null)
      else void readWithStty(device, platform, run).then(answer)
    }
  }
  const start = (): ChildProcess => {
    if (helper) return helper
    const child = spawn(options.perlPath ?? 'perl', ['-e', READER_SCRIPT], {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
    })
    child.once('error', () => {
      usable = false
      stop(child)
    })
    child.once('exit', () => stop(child))
    // A reader that died mid-write must not take Shellgate with it (EPIPE).
    child.stdin!.on('error', () => stop(child))
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8')
      let newline = buffered.indexOf('\n')
      while (newline !== -1) {
        waiting.shift()?.answer(parseReaderLine(buffered.slice(0, newline)))
        buffered = buffered.slice(newline + 1)
        newline = buffered.indexOf('\n')
      }
    })
    // The reader must never keep Shellgate from exiting; it ends at its stdin's EOF.
    child.unref()
    for (const stream of [child.stdin, child.stdout]) (stream as unknown as { unref?: () => void }).unref?.()
    helper = child
    return child
  }

  return {
    read(devicePath) {
      if (platform === 'win32' || !TERMINAL_DEVICE.test(devicePath)) return Promise.resolve(null)
      if (!usable) return readWithStty(devicePath, platform, run)
      const child = start()
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          // A reader that stopped answering is replaced; this read is unknown.
          child.kill()
          resolve(null)
        }, TERMINAL_MODE_TIMEOUT_MS)
        waiting.push({
          device: devicePath,
          answer: (mode) => {
            clearTimeout(timer)
            resolve(mode)
          },
        })
        child.stdin!.write(`${devicePath}\n`)
      })
    },
  }
}

/** `1 1`: echo and canonical; `?`: the device could not be read. */
export function parseReaderLine(line: string): TerminalMode | null {
  const match = /^([01]) ([01])$/.exec(line.trim())
  return match ? { echo: match[1] === '1', canonical: match[2] === '1' } : null
}

function readWithStty(
  devicePath: string,
  platform: NodeJS.Platform,
  run: ExecFileFunction,
): Promise<TerminalMode | null> {
  const deviceFlag = platform === 'darwin' ? '-f' : '-F'
  return new Promise((resolve) => {
    run(
      'stty',
      [deviceFlag, devicePath, '-a'],
      { env: { LC_ALL: 'C', PATH: '/bin:/usr/bin' }, timeout: TERMINAL_MODE_TIMEOUT_MS },
      (error, stdout) => resolve(error ? null : parseSttyFlags(stdout)),
    )
  })
}

/** `stty -a` lists flags as words, a cleared one with a leading "-": `icanon -echo`. */
export function parseSttyFlags(text: string): TerminalMode | null {
  const words = new Set(text.split(/[\s;]+/))
  const flag = (name: string) => (words.has(name) ? true : words.has(`-${name}`) ? false : null)
  const echo = flag('echo')
  const canonical = flag('icanon')
  if (echo === null || canonical === null) return null
  return { echo, canonical }
}

let shared: TerminalModeReader | null = null

/** The process's one reader (one Perl for every terminal task). */
export function readTerminalMode(
  devicePath: string,
  platform: NodeJS.Platform,
): Promise<TerminalMode | null> {
  shared ??= createTerminalModeReader(platform)
  return shared.read(devicePath)
}
