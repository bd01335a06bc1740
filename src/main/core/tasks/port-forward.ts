import { type ChildProcess, spawn } from 'node:child_process'
import { readlinkSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'

export const DEFAULT_NSENTER_PATH = '/usr/bin/nsenter'
export const DEFAULT_SOCAT_PATH = '/usr/bin/socat'
/** A browser opens a handful of connections to a dev server; a flood of them is refused. */
export const FORWARD_MAX_CONNECTIONS = 64

export interface PortForwardOptions {
  /** The port inside the task's network namespace. */
  port: number
  /** A live process in that namespace, looked up per connection (a dev server may restart). */
  pidInNamespace: () => Promise<number | null>
  nsenterPath?: string
  socatPath?: string
  /** Called for every connection that could not be carried (for a log line); optional. */
  onProblem?: (message: string) => void
}

export interface PortForward {
  /** The host's 127.0.0.1 port the person's browser uses: the same number when it was free. */
  hostPort: number
  close(): Promise<void>
}

/**
 * The person opened a task's port (issue 23.3): 127.0.0.1 on the host listens, and each connection
 * is carried into the sandbox's network namespace by `nsenter --net` running socat there, which
 * connects to the server on the namespace's own loopback.
 *
 * Why not a Unix socket bound into the sandbox with socat inside (as the egress bridge does): the
 * host would then connect to a path inside a folder the sandbox can write, and a sandboxed
 * process could swap the socket for a symlink to any socket on the host (Docker's, the agent's
 * SSH agent, Shellgate's own hub), and the person's browser traffic would go there. Here nothing is
 * added inside the sandbox and nothing in it is trusted: it can still not reach the host.
 */
export async function openPortForward(options: PortForwardOptions): Promise<PortForward> {
  const nsenter = options.nsenterPath ?? DEFAULT_NSENTER_PATH
  const socat = options.socatPath ?? DEFAULT_SOCAT_PATH
  const carriers = new Set<ChildProcess>()
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    if (sockets.size >= FORWARD_MAX_CONNECTIONS) {
      socket.destroy()
      return
    }
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
    void carry(socket)
  })
  server.maxConnections = FORWARD_MAX_CONNECTIONS

  const carry = async (socket: Socket) => {
    socket.pause()
    const pid = await options.pidInNamespace()
    if (pid === null || socket.destroyed) {
      options.onProblem?.(`port ${options.port}: no process of the task is left in its network namespace`)
      socket.destroy()
      return
    }
    const child = spawn(
      nsenter,
      [...nsenterArgs(pid), '--', socat, 'STDIO', `TCP:127.0.0.1:${options.port}`],
      {
        stdio: ['pipe', 'pipe', 'ignore'],
        env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
      },
    )
    carriers.add(child)
    const end = () => {
      carriers.delete(child)
      socket.destroy()
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    }
    child.once('error', (error) => {
      options.onProblem?.(`port ${options.port}: ${error.message}`)
      end()
    })
    child.once('exit', end)
    socket.once('close', end)
    socket.on('error', end)
    child.stdin!.on('error', end)
    socket.pipe(child.stdin!)
    child.stdout!.pipe(socket)
    socket.resume()
  }

  const hostPort = await listenLoopback(server, options.port)
  return {
    hostPort,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        for (const child of carriers) child.kill('SIGKILL')
        server.close(() => resolve())
      }),
  }
}

/** Joins the namespace's owning user namespace too when it is not ours (an unprivileged bwrap makes one). */
function nsenterArgs(pid: number): string[] {
  const args = ['--target', String(pid), '--net']
  if (namespaceLink(pid, 'user') !== namespaceLink('self', 'user'))
    args.push('--user', '--preserve-credentials')
  return args
}

function namespaceLink(pid: number | 'self', kind: string): string | null {
  try {
    return readlinkSync(`/proc/${pid}/ns/${kind}`)
  } catch {
    return null
  }
}

/** The same port number when it is free on the host, else one the system picks. */
function listenLoopback(server: Server, port: number): Promise<number> {
  const attempt = (wanted: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject)
      server.listen({ host: '127.0.0.1', port: wanted, exclusive: true }, () => {
        server.off('error', reject)
        resolve((server.address() as { port: number }).port)
      })
    })
  return attempt(port).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES') throw error
    return attempt(0)
  })
}
