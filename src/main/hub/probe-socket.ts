import { connect } from 'node:net'

export type SocketProbe = 'listening' | 'refused' | 'missing' | 'timeout'

/** Whether anything accepts connections at a socket path; bounded so a wedged listener cannot hang us. */
export function probeSocket(path: string, timeoutMs: number): Promise<SocketProbe> {
  return new Promise((resolve) => {
    const socket = connect(path)
    const done = (result: SocketProbe) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(result)
    }
    const timer = setTimeout(() => done('timeout'), timeoutMs)
    socket.once('connect', () => done('listening'))
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done(error.code === 'ENOENT' ? 'missing' : error.code === 'ECONNREFUSED' ? 'refused' : 'timeout'),
    )
  })
}
