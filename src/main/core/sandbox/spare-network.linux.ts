import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, fstatSync, openSync, readFileSync, rmSync } from 'node:fs'
import { SANDBOX_PROXY_PORT_INSIDE } from '../../../shared/settings'
import { makeSocketDir } from './network-run'
import { NETWORK_DIR_INSIDE } from './bwrap-network.linux'
import { PROXY_SOCKET_NAME } from './network-profile'
import { systemLayout } from './system-folders'

/**
 * A network namespace made ahead of time for exactly one command, with the proxy's bridge already
 * listening in it (issue 19's bench point): starting socat inside each command's sandbox and waiting
 * for it was most of a networked command's cost (+18 ms of +25 on a loaded machine). The command
 * joins it with nsenter instead of making its own.
 *
 * Why it is as safe as a namespace of its own:
 * - one spare serves one command, then its bridge is killed and its namespace let go; nothing else
 *   ever joins it, so no command meets another's listeners or connections;
 * - it is held by an open file descriptor of this process, not by a PID: the descriptor is opened
 *   while bwrap's own report (--info-fd) names the namespace, its inode is checked against that
 *   report and against this process's namespace (never the host's), and an fd cannot be recycled
 *   into another namespace while the command that uses it runs (release closes it after the tree
 *   is gone);
 * - the bridge runs in a bwrap of its own (no capabilities, the system's libraries and the run's
 *   socket folder only), as it ran inside the command's sandbox before.
 * Root only: joining a namespace needs CAP_SYS_ADMIN over its owner. Unprivileged, bwrap puts each
 * namespace in a user namespace of its own that a later command cannot enter, so the command makes
 * its own namespace and bridge as before (bwrap-network.linux.ts).
 */
export interface SpareNetwork {
  /** The host folder of this run's sockets; the bridge connects to proxy.sock in it per connection. */
  socketDir: string
  /** What nsenter opens: /proc/<this pid>/fd/<n>, the descriptor that holds the namespace. */
  namespacePath: string
  /** False once the bridge has exited: a spare without its listener is discarded, never handed out. */
  alive(): boolean
  /** Kills the bridge, lets the namespace go and removes the folder; once the command's tree is gone. */
  discard(): void
}

export interface SparePool {
  /** A ready spare, never handed out twice; null when none is ready (the command then bridges itself). */
  take(): SpareNetwork | null
  /** Makes one spare, soon, if none is ready or under way. */
  refill(): void
  /** Resolves once no spare is being made (a bench or test waits here so no timing includes one). */
  idle(): Promise<void>
  /** Discards the idle spare; later calls to take() return null. */
  dispose(): void
}

export interface SparePoolOptions {
  baseDir: string
  bwrapPath: string
  socatPath: string
  nsenterPath: string
  /** How long a spare may take to listen before it is killed (MAKE_TIMEOUT_MS). */
  makeTimeoutMs?: number
}

/** The bridge writes this when it listens (socat -d -d); anything else before it is a failure. */
const LISTENING_NOTICE = ' N listening on '
// A bridge that neither listens nor exits in this time is killed: it would hold the pool (and the
// app's exit) forever. socat listens within milliseconds even on a loaded machine.
const MAKE_TIMEOUT_MS = 10_000
/** bwrap reports its child's pid right after the clone; one that has not within this is ended without it. */
const REPORT_WAIT_MS = 1_000

export function createSparePool(options: SparePoolOptions): SparePool {
  let ready: SpareNetwork | null = null
  let making: Promise<void> | null = null
  // The spare under way, so dispose() ends it too: made ahead, it would otherwise outlive the core.
  let abortMaking: (() => void) | null = null
  let joinChecked = false
  let disposed = false
  const givenOut = new Set<SpareNetwork>()
  const refill = () => {
    if (disposed || ready || making) return
    // Made after the current call's answer is on its way (spawning costs milliseconds): between
    // commands, not beside one.
    making = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => {
        if (disposed) return null
        const made = makeSpare(options)
        abortMaking = made.abort
        return made.spare
      })
      .then(async (spare) => {
        // The first spare is joined once by nsenter running `true`: where a security module or
        // seccomp refuses setns, the pool turns itself off and commands bridge themselves.
        if (spare && !joinChecked && !disposed) {
          joinChecked = true
          if (!(await joins(options.nsenterPath, spare.namespacePath))) {
            spare.discard()
            disposed = true
            return null
          }
        }
        return spare
      })
      .then(
        (spare) => {
          making = null
          abortMaking = null
          if (disposed) spare?.discard()
          else ready = spare
        },
        // A spare that cannot be made (no socat, a bwrap that fails) only costs speed: commands bridge themselves.
        () => {
          making = null
          abortMaking = null
        },
      )
  }
  return {
    take() {
      const spare = ready
      ready = null
      if (!spare?.alive()) {
        spare?.discard()
        return null
      }
      // Kept until its command releases it, so dispose() ends it too if that never comes.
      givenOut.add(spare)
      return {
        ...spare,
        discard: () => {
          givenOut.delete(spare)
          spare.discard()
        },
      }
    },
    refill,
    idle: async () => {
      await making
    },
    dispose() {
      disposed = true
      ready?.discard()
      ready = null
      abortMaking?.()
      for (const spare of givenOut) spare.discard()
      givenOut.clear()
    },
  }
}

/** Whether nsenter can join the namespace at all (setns may be denied where bwrap works). */
function joins(nsenterPath: string, namespacePath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = spawn(nsenterPath, [`--net=${namespacePath}`, '--', '/bin/true'], {
      stdio: 'ignore',
      env: {},
    })
    probe.on('error', () => resolve(false))
    probe.on('exit', (code) => resolve(code === 0))
  })
}

function makeSpare(options: SparePoolOptions): { spare: Promise<SpareNetwork>; abort: () => void } {
  let abort = () => {}
  const spare = new Promise<SpareNetwork>((resolve, reject) => {
    abort = startSpare(options, resolve, reject)
  })
  return { spare, abort }
}

/** Starts the bridge's bwrap; returns what ends it while it is still being made. */
function startSpare(
  options: SparePoolOptions,
  resolve: (spare: SpareNetwork) => void,
  reject: (error: Error) => void,
): () => void {
  const socketDir = makeSocketDir(options.baseDir)
  const holder = spawn(options.bwrapPath, holderArgs(options.socatPath, socketDir), {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    env: {},
  })
  let fd: number | null = null
  let info = ''
  let infoEnded = false
  const infoStream = holder.stdio[3] as NodeJS.ReadableStream & { unref?: () => void }
  const exited = () => holder.exitCode !== null || holder.signalCode !== null
  const endAll = once(() => {
    // bwrap's child (the namespace's first process) sets its parent-death signal a moment after
    // it is cloned: a holder killed in that moment leaves it running alone. It is killed by pid
    // too, which ends everything in its PID namespace; only while it is still our bwrap's child,
    // so a pid reused by another process is never signalled.
    const child = parseInfo(info)?.pid
    if (child !== undefined && parentOf(child) === holder.pid) {
      try {
        process.kill(child, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
    holder.kill('SIGKILL')
    if (fd !== null) closeSync(fd)
    fd = null
    rmSync(socketDir, { recursive: true, force: true })
  })
  const discard = () => {
    // Until bwrap has said which pid its child has (it does right after the clone), ending it
    // would leave that child unknown: the end waits for the report, or for bwrap to exit without one.
    if (infoEnded || exited()) return endAll()
    infoStream.once('end', endAll)
    holder.once('exit', endAll)
    // A bwrap that never reports (hung before its clone) is ended anyway.
    setTimeout(endAll, REPORT_WAIT_MS).unref()
  }
  let settled = false
  const timeoutMs = options.makeTimeoutMs ?? MAKE_TIMEOUT_MS
  const timer = setTimeout(() => fail(`its bridge did not listen within ${timeoutMs} ms`), timeoutMs)
  const fail = (why: string) => {
    if (settled) return
    settled = true
    clearTimeout(timer)
    discard()
    reject(new Error(`no spare network: ${why}`))
  }
  {
    holder.on('error', (error) => fail(error.message))
    holder.on('exit', () => fd === null && fail('its bridge exited before it listened'))
    infoStream.on('data', (chunk) => {
      info += String(chunk)
    })
    let stderr = ''
    let listening = false
    let reported: { pid: number; inode: number } | null = null
    const openWhenBoth = () => {
      if (!listening || !reported || fd !== null) return
      try {
        fd = openHeldNamespace(reported, holder)
      } catch (error) {
        fail((error as Error).message)
        return
      }
      settled = true
      clearTimeout(timer)
      // A ready spare never keeps the app alive (while being made it does, so a wait on it can end);
      // --die-with-parent ends it with this process.
      holder.unref()
      unrefStreams(holder, infoStream)
      const alive = () => holder.exitCode === null && holder.signalCode === null
      resolve({ socketDir, namespacePath: `/proc/${process.pid}/fd/${fd}`, alive, discard: once(discard) })
    }
    infoStream.on('end', () => {
      infoEnded = true
      reported = parseInfo(info)
      if (!reported) fail(`bwrap reported no namespace: ${info.trim()}`)
      else openWhenBoth()
    })
    holder.stderr!.on('data', (chunk) => {
      if (listening) return // later notices (one per connection) are drained, never buffered
      stderr += String(chunk)
      if (stderr.includes(LISTENING_NOTICE)) {
        listening = true
        openWhenBoth()
      } else if (stderr.includes(' E ')) fail(stderr.trim())
    })
  }
  return () => fail('the pool was disposed')
}

/**
 * The bridge's own sandbox: the system's binaries and libraries, the run's socket folder, and a
 * new network namespace (bwrap brings its loopback up) that the command will join.
 */
function holderArgs(socatPath: string, socketDir: string): string[] {
  const system = systemLayout('linux')
  const args: string[] = []
  for (const link of system.symlinks) args.push('--symlink', link.target, link.path)
  for (const entry of system.readable) {
    // /etc holds secrets the layout would have to hide; socat needs none of it to bridge two addresses.
    if (entry.path === '/etc' || entry.path.startsWith('/etc/') || entry.kind !== 'dir') continue
    args.push('--ro-bind', entry.source ?? entry.path, entry.path)
  }
  args.push('--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--ro-bind', socketDir, NETWORK_DIR_INSIDE)
  args.push('--remount-ro', '/', '--unshare-net', '--unshare-pid', '--unshare-ipc')
  args.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--info-fd', '3', '--')
  args.push(
    socatPath,
    '-d',
    '-d',
    `TCP-LISTEN:${SANDBOX_PROXY_PORT_INSIDE},bind=127.0.0.1,fork,reuseaddr`,
    `UNIX-CONNECT:${NETWORK_DIR_INSIDE}/${PROXY_SOCKET_NAME}`,
  )
  return args
}

function parseInfo(text: string): { pid: number; inode: number } | null {
  try {
    const info = JSON.parse(text) as Record<string, unknown>
    const pid = info['child-pid']
    const inode = info['net-namespace']
    return Number.isInteger(pid) && Number.isInteger(inode)
      ? { pid: pid as number, inode: inode as number }
      : null
  } catch {
    return null
  }
}

/**
 * Opens the namespace of bwrap's child and proves it is the one bwrap made: a PID can be reused,
 * an open descriptor cannot change what it holds. Never this process's own namespace (the host's).
 * Namespace inodes are reused too, and a sandboxed command can make a namespace of its own, so
 * after opening, the process at that pid must still be the child of our bwrap: the bwrap is our
 * unreaped child (its pid cannot be reused), and it forks no other child, so a pid that died and
 * came back as someone else's process fails here.
 */
function openHeldNamespace(reported: { pid: number; inode: number }, holder: ChildProcess): number {
  const own = fstatInode('/proc/self/ns/net')
  const fd = openSync(`/proc/${reported.pid}/ns/net`, 'r')
  const held = fstatSync(fd).ino
  const why =
    held !== reported.inode || held === own
      ? `the namespace at pid ${reported.pid} is not the one bwrap made (${held}, expected ${reported.inode})`
      : holder.exitCode !== null || holder.signalCode !== null || parentOf(reported.pid) !== holder.pid
        ? `pid ${reported.pid} is no longer bwrap's child`
        : null
  if (why !== null) {
    closeSync(fd)
    throw new Error(why)
  }
  return fd
}

/** The parent pid from /proc/PID/stat (after the command name, which may hold spaces and parens). */
function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(fields[1])
  } catch {
    return null
  }
}

function fstatInode(path: string): number {
  const fd = openSync(path, 'r')
  try {
    return fstatSync(fd).ino
  } finally {
    closeSync(fd)
  }
}

function unrefStreams(holder: ChildProcess, info: { unref?: () => void }): void {
  ;(holder.stderr as unknown as { unref?: () => void }).unref?.()
  info.unref?.()
}

function once(action: () => void): () => void {
  let done = false
  return () => {
    if (done) return
    done = true
    action()
  }
}
