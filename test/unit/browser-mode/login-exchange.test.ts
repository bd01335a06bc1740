import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LOGIN_CODE_TTL_MS } from '../../../src/main/browser-mode/login-codes'
import {
  codeOf,
  type ExchangeAnswer,
  logIn,
  postExchange,
  type RunningTestServer,
  startTestServer,
} from '../transports/harness'

function errorCode(answer: ExchangeAnswer): string | undefined {
  return (JSON.parse(answer.body) as { error?: { code?: string } }).error?.code
}

const exchange = (running: RunningTestServer, code: string, headers?: Record<string, string | null>) =>
  postExchange(running.server, JSON.stringify({ code }), headers)

describe('login exchange: a one-time code for a session key', () => {
  let clock = 0
  let running: RunningTestServer
  beforeEach(async () => {
    clock = 1_000_000
    running = await startTestServer({ now: () => clock })
  })
  afterEach(() => running.dispose())

  it('trades a code once; the second use is refused as spent', async () => {
    const code = codeOf(running.server.mintLoginUrl())
    const first = await exchange(running, code)
    expect(first.status).toBe(200)
    expect(JSON.parse(first.body).key).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/)
    const second = await exchange(running, code)
    expect(second.status).toBe(410)
    expect(errorCode(second)).toBe('code_spent')
    expect(JSON.parse(second.body).error.message).toContain('shellgate ui')
    expect(second.body).not.toContain(code)
  })

  it('refuses an expired code and an unknown one, each with its own code', async () => {
    const code = codeOf(running.server.mintLoginUrl())
    clock += LOGIN_CODE_TTL_MS
    const expired = await exchange(running, code)
    expect([expired.status, errorCode(expired)]).toEqual([410, 'code_expired'])
    const unknown = await exchange(running, 'A'.repeat(43))
    expect([unknown.status, errorCode(unknown)]).toEqual([401, 'code_unknown'])
  })

  it("refuses a code minted by another server (another hub's address)", async () => {
    const other = await startTestServer()
    try {
      const answer = await exchange(running, codeOf(other.server.mintLoginUrl()))
      expect(errorCode(answer)).toBe('code_unknown')
    } finally {
      await other.dispose()
    }
  })

  it('refuses a foreign Origin or Host before looking at the code, which stays usable', async () => {
    const code = codeOf(running.server.mintLoginUrl())
    const foreign = await exchange(running, code, { origin: `http://127.0.0.1:${running.server.port + 1}` })
    expect([foreign.status, errorCode(foreign)]).toEqual([403, 'origin_refused'])
    const noOrigin = await exchange(running, code, { origin: null })
    expect(errorCode(noOrigin)).toBe('origin_refused')
    const rebound = await exchange(running, code, { host: 'evil.example' })
    expect([rebound.status, errorCode(rebound)]).toEqual([403, 'host_refused'])
    for (const answer of [foreign, noOrigin, rebound]) {
      expect(answer.headers['access-control-allow-origin']).toBeUndefined()
    }
    expect((await exchange(running, code)).status).toBe(200)
  })

  it('answers malformed requests with invalid_input and spends nothing', async () => {
    const code = codeOf(running.server.mintLoginUrl())
    const cases: Array<[string, Record<string, string>]> = [
      ['{not json', {}],
      [JSON.stringify({ code: 42 }), {}],
      [JSON.stringify([code]), {}],
      [JSON.stringify({ code }), { 'content-type': 'text/plain' }],
      [JSON.stringify({ code, pad: 'x'.repeat(2_000) }), {}],
    ]
    for (const [body, headers] of cases) {
      const answer = await postExchange(running.server, body, headers)
      expect([answer.status, errorCode(answer)], body.slice(0, 20)).toEqual([400, 'invalid_input'])
    }
    expect((await exchange(running, code)).status).toBe(200)
  })

  it('keeps a bounded number of codes outstanding, forgetting the oldest first', async () => {
    const codes = Array.from({ length: 17 }, () => codeOf(running.server.mintLoginUrl()))
    expect(errorCode(await exchange(running, codes[0] ?? ''))).toBe('code_unknown')
    expect((await exchange(running, codes[16] ?? '')).status).toBe(200)
    expect((await exchange(running, codes[1] ?? '')).status).toBe(200)
  })

  it('sets no cookie on any answer, and logs neither code nor key', async () => {
    const written: string[] = []
    const restore = captureOutput(written)
    let key = ''
    const code = codeOf(running.server.mintLoginUrl())
    const answers: ExchangeAnswer[] = []
    try {
      answers.push(await exchange(running, code))
      key = JSON.parse(answers[0]?.body ?? '{}').key
      answers.push(await exchange(running, code))
      answers.push(await exchange(running, code, { origin: 'http://evil.example' }))
      answers.push(await postExchange(running.server, '{bad', {}))
      key = `${key} ${await logIn(running.server)}`
    } finally {
      restore()
    }
    for (const answer of answers) expect(answer.headers['set-cookie']).toBeUndefined()
    const everything = written.join('')
    for (const secret of [code, ...key.split(' ')]) expect(everything).not.toContain(secret)
  })
})

/** Every byte this process writes to stdout/stderr or the console while the server runs. */
function captureOutput(into: string[]): () => void {
  const out = process.stdout.write.bind(process.stdout)
  const err = process.stderr.write.bind(process.stderr)
  const methods = ['log', 'info', 'warn', 'error', 'debug'] as const
  const originals = methods.map((name) => console[name])
  const record = (chunk: unknown) => {
    into.push(String(chunk))
    return true
  }
  process.stdout.write = record as typeof process.stdout.write
  process.stderr.write = record as typeof process.stderr.write
  for (const name of methods)
    console[name] = (...args: unknown[]) => void into.push(args.map(String).join(' '))
  return () => {
    process.stdout.write = out
    process.stderr.write = err
    methods.forEach((name, index) => {
      console[name] = originals[index] as (typeof console)[typeof name]
    })
  }
}
