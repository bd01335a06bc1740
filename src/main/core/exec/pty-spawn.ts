import type { ChildProcess } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { accessSync, closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs'
import { constants as osConstants } from 'node:os'
import { delimiter, isAbsolute, join } from 'node:path'
import type { IPty } from '@lydell/node-pty'
import { ExecInputError } from './exec-input-error'
import { drainBeforeDestroy } from './pty-drain'
import type { SpawnFunction } from './spawn-function'
import { readTerminalMode } from './terminal-mode'
import { MAX_TERMINAL_CELLS, type TerminalHandle, type TerminalOptions } from './terminal-types'
import type { OutputFileRef } from './types'

/** xterm.js is what shows the terminal on the desk; programs pick their escape codes from TERM. */
export const PTY_TERM_NAME = 'xterm-256color'

type PtyModule = typeof import('@lydell/node-pty')
let ptyModule: Promise<PtyModule> | null = null

/** The native module is loaded on the first terminal run only: most runs (and the CLI) never need it. */
export function loadPty(): Promise<PtyModule> {
  ptyModule ??= import('@lydell/node-pty').then(
    (loaded) => (loaded as { default?: PtyModule }).default ?? loaded,
  )
  return ptyModule
}

export interface PtySpawnContext {
  pty: PtyModule
  terminal: TerminalOptions
  /** The run's output file: the terminal's output is appended to it through a descriptor of our own. */
  output: OutputFileRef
  platform: NodeJS.Platform
  onTerminal?: (terminal: TerminalHandle) => void
}

/**
 * A SpawnFunction that starts the child on a pseudo-terminal instead of pipes, so the executor's
 * one lifecycle (timeouts, tree kill, run tag, leftovers, the file's size guard) applies unchanged.
 * node-pty forks the child as a session leader with the terminal as its controlling tty, which
 * makes it lead its own process group, as `detached: true` does for a piped child. The stdio the
 * lifecycle passes is ignored: stdin, stdout and stderr are all the terminal.
 */
export function ptySpawnFunction(context: PtySpawnContext): SpawnFunction {
  return (file, args, options) => {
    const child = new PtyChild()
    const env = (options.env ?? {}) as Record<string, string>
    try {
      const cwd = String(options.cwd ?? '/')
      const executable = resolveExecutable(file, env.PATH ?? '', cwd)
      const fd = openForAppend(context.output)
      let term: IPty
      try {
        term = context.pty.spawn(executable, [...args], {
          name: PTY_TERM_NAME,
          cols: context.terminal.cols,
          rows: context.terminal.rows,
          cwd,
          env,
          encoding: null,
        } as Parameters<PtyModule['spawn']>[2])
      } catch (error) {
        closeSync(fd)
        throw error
      }
      child.attach(term, fd, context)
    } catch (error) {
      process.nextTick(() => child.emit('error', error))
    }
    return child as unknown as ChildProcess
  }
}

/** What the lifecycle sees of a terminal child: ChildProcess's events, pid and no pipes. */
class PtyChild extends EventEmitter {
  pid: number | undefined = undefined
  readonly stdin = null
  readonly stdout = null
  readonly stderr = null

  attach(term: IPty, fd: number, context: PtySpawnContext): void {
    this.pid = term.pid
    const handle = new PtyTerminal(term, fd, context.terminal, context.platform, (code, signal) => {
      this.emit('exit', code, signal)
      this.emit('close', code, signal)
    })
    context.onTerminal?.(handle)
    process.nextTick(() => this.emit('spawn'))
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    if (this.pid === undefined) return false
    try {
      process.kill(this.pid, signal)
      return true
    } catch {
      return false
    }
  }
}

class PtyTerminal implements TerminalHandle {
  private readonly dataListeners = new Set<(chunk: Buffer) => void>()
  private readonly closeListeners = new Set<() => void>()
  private fd: number | null
  closed = false
  size: TerminalOptions

  constructor(
    private readonly term: IPty,
    fd: number,
    size: TerminalOptions,
    private readonly platform: NodeJS.Platform,
    onExit: (code: number | null, signal: NodeJS.Signals | null) => void,
  ) {
    this.fd = fd
    this.size = { ...size }
    term.onData((data) => this.onOutput(data as unknown as Buffer))
    // node-pty reports exit only after the terminal's output was read to the end, or 200 ms later
    // with what is left read by the drain.
    drainBeforeDestroy(term, (chunk) => this.onOutput(chunk), platform)
    term.onExit(({ exitCode, signal }) => {
      this.closed = true
      this.closeFile()
      for (const listener of [...this.closeListeners]) listener()
      this.closeListeners.clear()
      this.dataListeners.clear()
      const name = signal ? signalName(signal) : null
      onExit(name ? null : exitCode, name)
    })
  }

  write(data: string | Buffer): void {
    if (this.closed) throw new Error('the terminal is closed')
    this.term.write(data as string)
  }

  resize(cols: number, rows: number): void {
    assertTerminalSize({ cols, rows })
    if (this.closed) return
    this.term.resize(cols, rows)
    this.size = { cols, rows }
  }

  mode() {
    const device = (this.term as unknown as { ptsName?: string }).ptsName
    if (this.closed || !device) return Promise.resolve(null)
    return readTerminalMode(device, this.platform)
  }

  foregroundProcess(): string | null {
    if (this.closed) return null
    try {
      return this.term.process || null
    } catch {
      return null
    }
  }

  onData(listener: (chunk: Buffer) => void): () => void {
    if (this.closed) return () => undefined
    this.dataListeners.add(listener)
    return () => this.dataListeners.delete(listener)
  }

  onClose(listener: () => void): () => void {
    if (this.closed) {
      listener()
      return () => undefined
    }
    this.closeListeners.add(listener)
    return () => this.closeListeners.delete(listener)
  }

  private onOutput(chunk: Buffer): void {
    if (this.fd !== null) {
      try {
        writeSync(this.fd, chunk)
      } catch {
        // A full disk or a file past its cap: stop writing; the size guard and the result say why.
        this.closeFile()
      }
    }
    for (const listener of [...this.dataListeners]) listener(chunk)
  }

  private closeFile(): void {
    if (this.fd === null) return
    closeSync(this.fd)
    this.fd = null
  }
}

/**
 * Our own descriptor on the output file, because the lifecycle closes its one when the run settles
 * (a killed file-mode run settles before the process is gone) and a write through a closed, reused
 * descriptor number would land in some other file. Reopened without following a symlink and
 * checked to be the very file the executor created.
 */
function openForAppend(file: OutputFileRef): number {
  const fd = openSync(file.path, constants.O_WRONLY | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0))
  const stats = fstatSync(fd)
  if (stats.dev !== file.identity.dev || stats.ino !== file.identity.ino) {
    closeSync(fd)
    throw Object.assign(new Error(`${file.path} is no longer the output file this run created`), {
      code: 'EINVAL',
    })
  }
  return fd
}

/**
 * node-pty's child reports a failed exec only as text on the terminal and exit code 1, so the
 * file is resolved first and a missing one is the same ENOENT spawn error a piped run gets.
 */
function resolveExecutable(file: string, path: string, cwd: string): string {
  const candidates = file.includes('/')
    ? [isAbsolute(file) ? file : join(cwd, file)]
    : path.split(delimiter).map((dir) => join(dir, file))
  for (const candidate of candidates) {
    if (!isAbsolute(candidate)) continue
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {}
  }
  throw Object.assign(new Error(`spawn ${file} ENOENT`), { code: 'ENOENT', path: file })
}

export function assertTerminalSize(size: TerminalOptions): void {
  for (const [name, value] of Object.entries({ cols: size?.cols, rows: size?.rows })) {
    if (!Number.isInteger(value) || (value as number) < 2 || (value as number) > MAX_TERMINAL_CELLS) {
      throw new ExecInputError(
        `terminal ${name} must be a whole number from 2 to ${MAX_TERMINAL_CELLS}, got ${String(value)}`,
      )
    }
  }
}

const SIGNAL_NAMES = new Map<number, NodeJS.Signals>(
  Object.entries(osConstants.signals).map(([name, number]) => [number, name as NodeJS.Signals]),
)

function signalName(signal: number): NodeJS.Signals | null {
  return SIGNAL_NAMES.get(signal) ?? null
}
