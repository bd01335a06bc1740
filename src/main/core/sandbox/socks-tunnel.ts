import { isIPv4, isIPv6, type Socket } from 'node:net'

/** RFC 1928 / RFC 1929 / SOCKS4: the bytes each version speaks. */
const SOCKS5_VERSION = 5
const SOCKS4_VERSION = 4
const CONNECT_COMMAND = 1
const METHOD_NONE = 0x00
const METHOD_USER_PASSWORD = 0x02
const METHOD_REFUSED = 0xff
const AUTH_SUBNEGOTIATION_VERSION = 1
const ADDRESS_IPV4 = 1
const ADDRESS_NAME = 3
const ADDRESS_IPV6 = 4
const SOCKS4_GRANTED = 0x5a
/** RFC 1929: user name and password are at most 255 bytes each. */
const AUTH_FIELD_MAX_BYTES = 255

/** RFC 1928 §6's reply codes, so the command's error names what the parent said. */
const SOCKS5_REPLIES: Record<number, string> = {
  1: 'general failure',
  2: 'connection not allowed by its ruleset',
  3: 'network unreachable',
  4: 'host unreachable',
  5: 'connection refused',
  6: 'TTL expired',
  7: 'command not supported',
  8: 'address type not supported',
}

export interface SocksCredentials {
  user: string
  password: string
}

/**
 * Speaks the SOCKS handshake on `socket` (already connected to the parent) for a CONNECT to the
 * vetted `address:port`, and resolves once the parent says the tunnel is open; anything the parent
 * sent past its reply is put back on the socket. The address is sent, never the name, for
 * socks5h too: the parent resolving the name again could be rebound to a place the policy refused.
 */
export function socksHandshake(
  socket: Socket,
  version: 4 | 5,
  address: string,
  port: number,
  credentials: SocksCredentials | null,
): Promise<void> {
  const steps =
    version === 5 ? socks5Steps(address, port, credentials) : socks4Steps(address, port, credentials)
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0)
    let step = steps.next()
    const finish = (error: Error | null) => {
      socket.off('data', onData)
      socket.off('close', onClose)
      if (error) reject(error)
      else resolve()
    }
    const advance = (answer: Buffer | null) => {
      try {
        step = steps.next(answer as Buffer)
      } catch (error) {
        return finish(error as Error)
      }
      if (step.done) {
        // Bytes the server sent after its reply (SSH and SMTP speak first) go back on the stream,
        // paused so none is emitted before the tunnel's reader is there (its pipe() resumes it).
        if (received.length > 0) {
          socket.pause()
          socket.off('data', onData)
          socket.unshift(received)
        }
        return finish(null)
      }
      socket.write(step.value.send)
    }
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      while (!step.done) {
        const length = step.value.answerLength(received)
        if (length === null || received.length < length) return
        const answer = received.subarray(0, length)
        received = received.subarray(length)
        advance(answer)
      }
    }
    const onClose = () => finish(new Error('closed the connection during the SOCKS handshake'))
    socket.on('data', onData)
    socket.once('close', onClose)
    if (step.done) return finish(null)
    socket.write(step.value.send)
  })
}

/** One message out and how long the answer is (null: not known yet from what has arrived). */
interface Step {
  send: Buffer
  answerLength(received: Buffer): number | null
}

function* socks5Steps(
  address: string,
  port: number,
  credentials: SocksCredentials | null,
): Generator<Step, void, Buffer> {
  const methods = credentials ? [METHOD_NONE, METHOD_USER_PASSWORD] : [METHOD_NONE]
  const chosen = yield {
    send: Buffer.from([SOCKS5_VERSION, methods.length, ...methods]),
    answerLength: () => 2,
  }
  if (chosen[0] !== SOCKS5_VERSION) throw new Error('is not a SOCKS5 proxy')
  if (chosen[1] === METHOD_USER_PASSWORD && credentials) {
    const user = authField(credentials.user, 'user name')
    const password = authField(credentials.password, 'password')
    const status = yield {
      send: Buffer.concat([
        Buffer.from([AUTH_SUBNEGOTIATION_VERSION, user.length]),
        user,
        Buffer.from([password.length]),
        password,
      ]),
      answerLength: () => 2,
    }
    if (status[1] !== 0) throw new Error('refused the user name and password')
  } else if (chosen[1] !== METHOD_NONE) {
    const why = chosen[1] === METHOD_REFUSED ? 'accepts none of the offered logins' : 'chose an unknown login'
    throw new Error(credentials ? why : `${why} (it may want a user name and password in the proxy URL)`)
  }
  const reply = yield {
    send: Buffer.concat([
      Buffer.from([SOCKS5_VERSION, CONNECT_COMMAND, 0]),
      socks5Address(address),
      portBytes(port),
    ]),
    answerLength: socks5ReplyLength,
  }
  if (reply[1] !== 0) {
    throw new Error(`refused ${address}:${port}: ${SOCKS5_REPLIES[reply[1]!] ?? `reply ${reply[1]}`}`)
  }
}

function* socks4Steps(
  address: string,
  port: number,
  credentials: SocksCredentials | null,
): Generator<Step, void, Buffer> {
  if (!isIPv4(address)) throw new Error(`cannot reach ${address}: SOCKS4 carries IPv4 addresses only`)
  const reply = yield {
    send: Buffer.concat([
      Buffer.from([SOCKS4_VERSION, CONNECT_COMMAND]),
      portBytes(port),
      Buffer.from(address.split('.').map(Number)),
      Buffer.from(credentials?.user ?? '', 'utf8'),
      Buffer.from([0]),
    ]),
    answerLength: () => 8,
  }
  if (reply[1] !== SOCKS4_GRANTED) throw new Error(`refused ${address}:${port}: SOCKS4 reply ${reply[1]}`)
}

function socks5Address(address: string): Buffer {
  if (isIPv4(address)) return Buffer.from([ADDRESS_IPV4, ...address.split('.').map(Number)])
  if (isIPv6(address)) return Buffer.concat([Buffer.from([ADDRESS_IPV6]), ipv6Bytes(address)])
  // Only vetted addresses come here; a name is a programming error, still sent correctly.
  const name = Buffer.from(address, 'latin1')
  return Buffer.concat([Buffer.from([ADDRESS_NAME, name.length]), name])
}

/** VER REP RSV ATYP BND.ADDR BND.PORT: its length depends on ATYP (and, for a name, its first byte). */
function socks5ReplyLength(received: Buffer): number | null {
  if (received.length < 5) return null
  if (received[1] !== 0) return Math.min(received.length, 10)
  const type = received[3]
  if (type === ADDRESS_IPV4) return 4 + 4 + 2
  if (type === ADDRESS_IPV6) return 4 + 16 + 2
  if (type === ADDRESS_NAME) return 4 + 1 + received[4]! + 2
  return received.length
}

function ipv6Bytes(v6: string): Buffer {
  // An IPv4 tail (::ffff:10.0.0.1) is two 16-bit groups.
  const address = v6.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_all, a, b, c, d) =>
    [
      [a, b],
      [c, d],
    ]
      .map(([high, low]) => ((Number(high) << 8) | Number(low)).toString(16))
      .join(':'),
  )
  const [head = '', tail = ''] = address.split('::')
  const groups = (part: string) => (part === '' ? [] : part.split(':'))
  const left = groups(head)
  const right = address.includes('::') ? groups(tail) : []
  const words = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
  const bytes = Buffer.alloc(16)
  for (const [index, word] of words.entries()) bytes.writeUInt16BE(Number.parseInt(word, 16), index * 2)
  return bytes
}

function portBytes(port: number): Buffer {
  const bytes = Buffer.alloc(2)
  bytes.writeUInt16BE(port)
  return bytes
}

function authField(value: string, what: string): Buffer {
  const bytes = Buffer.from(value, 'utf8')
  if (bytes.length > AUTH_FIELD_MAX_BYTES)
    throw new Error(`has a ${what} longer than ${AUTH_FIELD_MAX_BYTES} bytes`)
  return bytes
}
