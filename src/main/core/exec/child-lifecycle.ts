import type { ChildProcess } from 'node:child_process'
import type { Readable } from 'node:stream'
import type { StreamName } from './bounded-collector'
import type { ChildOutcome, ChildRunSpec } from './child-run-types'
import { reopenedThroughProc } from './inherited-fds'
import { type KillTreeReport, killProcessTree, type TerminationProfile } from './kill-tree'
import { type LeftoverVerdict, lookForLeftovers } from './leftover-look'
import { clearDeadline, type Deadline, setDeadline } from './run-deadlines'
import { type RunWatchers, watchersFor } from './run-watchers'
import { RunStopwatch } from './stopwatch'
import type { LingeringInfo, SpawnErrorInfo, TerminationInfo } from './types'

/** seed 000: after exit, pipes get 1 s to drain; then whatever still holds them is killed. */
export const PIPE_DRAIN_AFTER_EXIT_MS = 1_000
/** seed 000: a kill requested 5 s ago with no exit settles as SIGKILL. */
export const KILL_SETTLE_MS = 5_000
/** Bash file mode settles at once on a kill request, with the shell's codes for TERM and KILL. */
export const FILE_MODE_TIMEOUT_EXIT_CODE = 143
export const FILE_MODE_CANCEL_EXIT_CODE = 137

type StopReason = 'timeout' | 'cancel' | 'output'

/**
 * One child from spawn to a single settlement. Exit, error, timeout, abort, output limit and the
 * drain/kill timers all race; `settle` runs once, removes every listener and timer, and no signal
 * is sent by this run after it (a termination in flight is awaited first, except in Bash file mode
 * where the seed settles at once and the kill finishes in the background).
 */
export function runChild(spec: ChildRunSpec): Promise<ChildOutcome> {
  return new Promise((resolve) => new ChildRun(spec, resolve).start())
}

class ChildRun {
  private readonly watch = new RunStopwatch()
  /** Null when nothing watches (no progress hook, no file, no samples): most runProcess calls. */
  private readonly watchers: RunWatchers | null
  /** The drain and kill-settle timers; most runs never need one. */
  private timers: Set<NodeJS.Timeout> | null = null
  private deadline: Deadline | null = null
  private child: ChildProcess | null = null
  private spawned = false
  private settling = false
  private exited = false
  /** 'close' was emitted: the child emits nothing more but a failed kill's 'error'. */
  private closed = false
  private exitCode: number | null = null
  private exitSignal: NodeJS.Signals | null = null
  private spawnError: SpawnErrorInfo | null = null
  private timedOut = false
  private cancelled = false
  private outputLimitReached = false
  private killer: Promise<KillTreeReport> | null = null
  private killReport: KillTreeReport | null = null
  /** The killer was started to end processes left behind after a normal exit, not to stop the run. */
  private killingLeftovers = false
  private heldOutput = false
  /** The leftover check after a normal exit has begun; the drain timer leaves the kill to it. */
  private sweeping = false
  /** Set when a kill had been requested and the process then exited with a code. */
  private exitedAfterKillRequest = false
  // Bound, not arrow fields: under keepNames (tsx, the bench) every arrow field costs a
  // defineProperty per run, some 2 µs each (issue 24.4).
  private readonly onSpawn = this.handleSpawn.bind(this)
  private readonly onError = this.handleError.bind(this)
  private readonly onAbort = this.handleAbort.bind(this)
  private readonly onExit = this.handleExit.bind(this)
  private readonly onClose = this.handleClose.bind(this)
  private readonly onTimeout = this.stop.bind(this, 'timeout')

  constructor(
    private readonly spec: ChildRunSpec,
    private readonly resolve: (outcome: ChildOutcome) => void,
  ) {
    this.watchers = watchersFor(spec, this.watch, this.fileCapExceeded.bind(this), this.pipeBytes.bind(this))
  }

  start(): void {
    const { output, platform } = this.spec
    // A terminal child (node-pty) is given no descriptors but its terminal: it takes them itself.
    const plan = this.spec.spawnChild ? reopenedThroughProc(this.spec.plan) : this.spec.plan
    const stdio =
      output.kind === 'file'
        ? (['ignore', output.file.fd, output.file.fd] as const)
        : (['ignore', 'pipe', 'pipe'] as const)
    try {
      this.child = (this.spec.spawnChild ?? this.spec.spawnFile)(plan.file, plan.args, {
        cwd: this.spec.cwd,
        env: this.spec.env,
        stdio: [...stdio, ...(plan.inheritFds ?? [])],
        // The child leads its own process group so the whole group can be signalled at once.
        detached: platform !== 'win32',
        windowsHide: true,
        windowsVerbatimArguments: plan.windowsVerbatimArguments,
      })
    } catch (error) {
      this.failSpawn(error)
      return
    }
    const child = this.child
    // `on`, not `once`: each is emitted at most once, settle removes them, and once() would wrap each.
    child.on('spawn', this.onSpawn)
    child.on('error', this.onError)
    child.on('exit', this.onExit)
    child.on('close', this.onClose)
    if (output.kind === 'pipe') {
      child.stdout?.on('data', (chunk: Buffer) => this.onData('stdout', chunk))
      child.stderr?.on('data', (chunk: Buffer) => this.onData('stderr', chunk))
    }
    // The wall-clock budget covers spawning too: a loaded machine must not stretch it.
    if (this.spec.timeoutMs > 0) this.deadline = setDeadline(this.spec.timeoutMs, this.onTimeout)
    this.spec.signal?.addEventListener('abort', this.onAbort, { once: true })
    if (this.spec.signal?.aborted) this.onAbort()
  }

  private fileCapExceeded(): void {
    this.outputLimitReached = true
    this.stop('output')
  }

  private pipeBytes(): number {
    return this.spec.output.kind === 'pipe' ? this.spec.output.collector.totalBytes : 0
  }

  private handleSpawn(): void {
    this.spawned = true
    this.watch.spawned()
    const pid = this.child!.pid!
    this.spec.hooks.onSpawn?.({ pid, runId: this.spec.runId })
    if (!this.settling) this.watchers?.start(pid)
  }

  private handleError(error: Error): void {
    // After a successful spawn, 'error' only reports a failed kill(); the exit still arrives.
    if (!this.spawned) this.failSpawn(error)
  }

  private handleAbort(): void {
    this.stop('cancel')
  }

  private handleExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.exited = true
    this.watch.exited()
    this.exitCode = code
    this.exitSignal = signal
    if (this.killer && !this.killingLeftovers && signal === null) this.exitedAfterKillRequest = true
    if (this.spec.output.kind === 'file') {
      this.settleAfterLeftoverLook()
      return
    }
    // Both pipes at EOF: no process holds them, and close follows at once (most runs: no timer).
    if (atEnd(this.child!.stdout) && atEnd(this.child!.stderr)) return
    // Completion is decided by exit, not EOF: a background grandchild may hold the pipe forever.
    this.after(PIPE_DRAIN_AFTER_EXIT_MS, () => {
      if (this.sweeping) return
      if (!this.killer) {
        this.killingLeftovers = true
        this.heldOutput = true
      }
      this.startKiller()
      this.settle()
    })
  }

  private handleClose(): void {
    this.closed = true
    if (!this.exited) return
    // The pipes closed, but a child that let go of them (`cmd >/dev/null &`) may still run.
    this.settleAfterLeftoverLook()
  }

  private onData(stream: StreamName, chunk: Buffer): void {
    if (this.settling) return
    this.watch.output()
    this.watchers?.noteOutput(chunk)
    const output = this.spec.output
    if (output.kind !== 'pipe') return
    if (!output.collector.push(stream, chunk) && output.onOutputLimit === 'terminate') {
      this.outputLimitReached = true
      this.stop('output')
    }
  }

  private stop(reason: StopReason): void {
    if (this.settling || this.exited) return
    if (reason === 'timeout') this.timedOut = true
    if (reason === 'cancel') this.cancelled = true
    if (this.killer) return
    this.watch.terminationRequested()
    if (!this.child || this.child.pid === undefined) {
      // Cancelled before the child existed: nothing to signal; spawn's outcome settles the run.
      return
    }
    this.startKiller()
    if (this.spec.output.kind === 'file') {
      this.exitCode = reason === 'timeout' ? FILE_MODE_TIMEOUT_EXIT_CODE : FILE_MODE_CANCEL_EXIT_CODE
      this.settle()
      return
    }
    this.after(KILL_SETTLE_MS, () => {
      // Still no exit after the whole kill sequence: report what the sequence ended with, unless
      // taskkill said it failed, which is not a kill (termination.problem says what happened).
      const killFailed = this.spec.platform === 'win32' && Boolean(this.killReport?.failure)
      if (!this.exited && !killFailed) this.exitSignal = 'SIGKILL'
      this.settle()
    })
  }

  /**
   * After a normal exit, whatever the command left running (`cmd &`, a `setsid` daemon) is ended
   * at once: nothing outlives the call unseen, and nothing keeps writing into an output file nobody
   * reads. Long-lived work belongs in a background task. When leftovers are found the result waits
   * for the kill and names them (issue 15.2); when the look may have missed some, a sweep runs
   * unawaited. The look settles the run.
   */
  private settleAfterLeftoverLook(): void {
    const pid = this.child?.pid
    if (pid === undefined || this.killer) {
      this.settle()
      return
    }
    // Exit and close each ask for it. The second must leave settling to the look under way, not
    // settle while it runs: where the look is a `ps` call (macOS), close arrives first, and the
    // result would name nothing while the kill started only after settlement.
    if (this.sweeping) return
    this.sweeping = true
    const verdict = lookForLeftovers(this.spec.runId, pid, this.spec.platform)
    if (typeof verdict === 'string') this.actOnLeftovers(verdict, pid)
    else void verdict.then((found) => this.actOnLeftovers(found, pid))
  }

  private actOnLeftovers(verdict: LeftoverVerdict, pid: number): void {
    if (!this.killer && verdict === 'left') {
      this.killingLeftovers = true
      this.startKiller('plain')
    } else if (!this.killer && verdict === 'unsure') {
      const sweep = killProcessTree({
        pid,
        runId: this.spec.runId,
        profile: 'plain',
        platform: this.spec.platform,
        env: this.spec.hostEnv ?? process.env,
        spawnFile: this.spec.spawnFile,
      }).catch(() => undefined)
      this.spec.trackKill?.(sweep)
    }
    this.settle()
  }

  private startKiller(profile: TerminationProfile = this.spec.profile): void {
    if (this.killer || !this.child?.pid) return
    this.killer = killProcessTree({
      pid: this.child.pid,
      runId: this.spec.runId,
      profile,
      platform: this.spec.platform,
      env: this.spec.hostEnv ?? process.env,
      spawnFile: this.spec.spawnFile,
    })
      .catch(
        (error: unknown): KillTreeReport => ({
          signalledPids: [],
          escalated: true,
          remaining: [],
          foundPids: [],
          failure: `the process tree could not be killed: ${String(error)}`,
        }),
      )
      .then((report) => {
        this.killReport = report
        return report
      })
    this.spec.trackKill?.(this.killer)
  }

  private failSpawn(error: unknown): void {
    const code = (error as NodeJS.ErrnoException)?.code
    this.spawnError = {
      code: typeof code === 'string' ? code : 'ESPAWN',
      message: error instanceof Error ? error.message : String(error),
    }
    this.settle()
  }

  private settle(): void {
    if (this.settling) return
    this.settling = true
    this.spec.onFinalize?.()
    if (this.deadline) clearDeadline(this.deadline)
    if (this.timers) for (const timer of this.timers) clearTimeout(timer)
    this.watchers?.stop()
    this.spec.signal?.removeEventListener('abort', this.onAbort)
    const child = this.child
    if (child && !this.closed) {
      child.off('spawn', this.onSpawn)
      child.off('exit', this.onExit)
      child.off('close', this.onClose)
      child.stdout?.destroy()
      child.stderr?.destroy()
    }
    // Keep a no-op 'error' listener: an unhandled 'error' after settlement would crash the host.
    child?.off('error', this.onError).on('error', ignoreError)
    const killedFileMode = this.spec.output.kind === 'file' && this.killer !== null && !this.exited
    // Nothing to wait for (most runs): resolve now, not a promise hop later (issue 24.4).
    if (killedFileMode || !this.killer) this.resolve(this.outcome())
    else void this.killer.then(() => this.resolve(this.outcome()))
  }

  private outcome(): ChildOutcome {
    const requested = this.timedOut || this.cancelled || this.outputLimitReached
    // The timer (or the abort) lost the race: the process had exited by itself before the first
    // signal was sent, so it completed, and its own exit code is the answer (issue 24.1).
    const finishedFirst = requested && this.exited && this.rootExitedBeforeKill()
    const timedOut = this.timedOut && !finishedFirst
    const cancelled = this.cancelled && !finishedFirst
    const killed = timedOut || cancelled || this.outputLimitReached
    const fileModeKill = this.spec.output.kind === 'file' && killed && !this.exited
    const stoppedByUs = killed && this.killer !== null && !this.killingLeftovers && !finishedFirst
    return {
      pid: this.child?.pid ?? null,
      spawnError: this.spawnError,
      // seed 004: a killed run has no trustworthy exit status of its own.
      exitCode: this.spawnError || (killed && !fileModeKill && !finishedFirst) ? null : this.exitCode,
      exitSignal: fileModeKill ? null : this.exitSignalOf(stoppedByUs),
      timedOut,
      cancelled,
      outputLimitReached: this.outputLimitReached,
      timings: this.watch.result(),
      // Windows: taskkill came too late, and what the process started may still run; say so.
      termination: stoppedByUs || (finishedFirst && this.killReport?.failure) ? this.termination() : null,
      lingering: this.killingLeftovers || finishedFirst ? this.lingering() : null,
    }
  }

  private rootExitedBeforeKill(): boolean {
    if (this.killingLeftovers || !this.killReport) return false
    return this.killReport.rootAlreadyExited === true
  }

  /**
   * A run we ended names the signal that ended it, even when the process answered it by exiting
   * with a code of its own (a TERM trap, or an exit that raced the signal it was already sent):
   * the result says either how it completed or what killed it, never neither (issue 24.1).
   */
  private exitSignalOf(stoppedByUs: boolean): NodeJS.Signals | null {
    if (!stoppedByUs || this.exitSignal !== null) return this.exitSignal
    // A kill that could not be confirmed (a failed taskkill, a process still running) is not a kill.
    if (!this.exited || this.killReport?.failure) return null
    return this.killReport?.escalated ? 'SIGKILL' : 'SIGTERM'
  }

  private termination(): TerminationInfo {
    const report = this.killReport
    // Windows reports every killed process as exit code 1, so only taskkill can tell who won.
    const exitedOnItsOwn =
      this.spec.platform === 'win32' ? report?.rootAlreadyExited === true : this.exitedAfterKillRequest
    return {
      signal: report?.escalated || this.exitSignal === 'SIGKILL' ? 'SIGKILL' : 'SIGTERM',
      exitedOnItsOwn,
      ownExitCode: exitedOnItsOwn && this.spec.platform !== 'win32' ? this.exitCode : null,
      problem: report?.failure ?? null,
    }
  }

  private lingering(): LingeringInfo | null {
    const report = this.killReport
    if (!report) return null
    const pids = report.foundPids.length
    // Zombies keep a group alive for kill(0) without being anything to report.
    if (pids === 0 && !this.heldOutput) return null
    return { pids: Math.max(pids, 1), killed: report.remaining.length === 0, heldOutput: this.heldOutput }
  }

  private after(ms: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.timers?.delete(timer)
      action()
    }, ms)
    this.timers ??= new Set()
    this.timers.add(timer)
  }
}

function ignoreError(): void {}

/** EOF was read (or there is no pipe): nothing can write into it any more. */
function atEnd(stream: Readable | null): boolean {
  return stream === null || stream.readableEnded
}
