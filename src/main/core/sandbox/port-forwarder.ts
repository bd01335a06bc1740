import { rmSync } from 'node:fs'
import { connect, createServer, type Socket } from 'node:net'

export interface PortForwarderOptions {
  /** The Unix socket the sandbox's bridge connects to for this port. */
  socketPath: string
  /** The host loopback port it leads to; nothing else is ever dialled. */
  port: number
  /** Checked again at every connection: why this port must not be reached now, or null. */
  refusal(port: number): Promise<string | null>
  onConnection(outcome: { port: number; allowed: boolean; reason: string }): void
}

export interface PortForwarder {
  close(): Promise<void>
}

/**
 * The host half of an allowed workspace port: each connection on the Unix socket becomes one TCP
 * connection to 127.0.0.1:port (then [::1]:port, for a server that listens on IPv6 only), bytes
 * copied both ways, so any protocol (PostgreSQL, Redis, HTTP) works. Refused at connect time
 * when the port has become one of Shellgate's own since the settings were saved.
 */
export async function startPortForwarder(options: PortForwarderOptions): Promise<PortForwarder> {
  const sockets = new Set<Socket>()
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  }
  const server = createServer((inside) => {
    track(inside)
    inside.pause()
    inside.on('error', () => inside.destroy())
    void options.refusal(options.port).then((refused) => {
      options.onConnection({
        port: options.port,
        allowed: refused === null,
        reason: refused ?? 'an allowed port of this workspace',
      })
      if (refused !== null) return inside.destroy()
      dial(inside, ['127.0.0.1', '::1'])
    })
  })

  const dial = (inside: Socket, hosts: string[]) => {
    const [host, ...rest] = hosts
    const upstream = connect({ host: host!, port: options.port })
    let connected = false
    track(upstream)
    upstream.once('connect', () => {
      connected = true
      upstream.pipe(inside)
      inside.pipe(upstream)
      inside.resume()
    })
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected && error.code === 'ECONNREFUSED' && rest.length > 0) {
        dial(inside, rest)
        return
      }
      inside.destroy()
    })
    inside.on('close', () => upstream.destroy())
  }

  rmSync(options.socketPath, { force: true })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.socketPath, () => resolve())
  })
  return {
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
      rmSync(options.socketPath, { force: true })
    },
  }
}
