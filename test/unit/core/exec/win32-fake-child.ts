import type { ChildProcess, SpawnOptions } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { PassThrough } from 'node:stream'
import type { SpawnFunction } from '../../../../src/main/core/exec/spawn-function'

/**
 * A stand-in for a Windows child, the one thing that cannot exist on Linux. It records every spawn
 * call exactly; the command child prints `output` and exits 0 unless `hang` is set, in which case
 * it exits only once taskkill is spawned for it (as Windows reports a killed process: code 1), or
 * never with `unkillable` (a process stuck in the kernel, which no signal can end).
 */
export interface RecordedSpawn {
  file: string
  args: string[]
  options: SpawnOptions
}

export function recordingSpawn(
  behaviour: {
    output?: Buffer
    hang?: boolean
    unkillable?: boolean
    /** taskkill's exit: 0 kills the child; 128 (no such process) means it had exited by itself (code 0); anything else leaves it running. */
    taskkillExitCode?: number
    /** The command exits 0 at once, but a process it started keeps its stdout open until taskkill ends it. */
    holdsOutput?: boolean
  } = {},
) {
  const calls: RecordedSpawn[] = []
  let running: FakeChild | null = null
  const spawnFile: SpawnFunction = (file, args, options) => {
    calls.push({ file, args: [...args], options })
    const child = new FakeChild(4242 + calls.length - 1)
    if (/taskkill\.exe$/i.test(file)) {
      const code = behaviour.taskkillExitCode ?? 0
      setImmediate(() => {
        if (code === 128) running?.finish(0)
        else if (code === 0 && !behaviour.unkillable) running?.finish(1)
        if (code === 0 && !behaviour.unkillable) running?.releaseOutput()
        child.finish(code)
      })
    } else {
      running = child
      setImmediate(() => {
        child.emit('spawn')
        if (behaviour.output) child.stdout.write(behaviour.output)
        if (behaviour.holdsOutput) child.exitHoldingOutput(0)
        else if (!behaviour.hang) child.finish(0)
      })
    }
    return child as unknown as ChildProcess
  }
  return { calls, spawnFile }
}

class FakeChild extends EventEmitter {
  readonly stdout = new PassThrough()
  readonly stderr = new PassThrough()
  private done = false

  constructor(readonly pid: number) {
    super()
  }

  /** Exits, while something it started still holds stdout and stderr: no close until released. */
  exitHoldingOutput(code: number): void {
    this.done = true
    this.emit('exit', code, null)
  }

  releaseOutput(): void {
    if (this.stdout.writableEnded) return
    this.stdout.end()
    this.stderr.end()
    setImmediate(() => this.emit('close', 0, null))
  }

  finish(code: number): void {
    if (this.done) return
    this.done = true
    this.stdout.end()
    this.stderr.end()
    this.emit('exit', code, null)
    setImmediate(() => this.emit('close', code, null))
  }
}
