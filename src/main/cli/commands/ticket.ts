import { StringDecoder } from 'node:string_decoder'
import { RpcError } from '../../../shared/ipc/rpc-error'
import { TICKET_PATTERN } from '../../../shared/ipc/ticket-pattern'
import { resolveShellgateHome } from '../../core/paths'
import { connectToHub, type HubConnection } from '../../hub/hub-client'
import { randomSource } from '../../hub/kernel-random'
import type { CliCommand, CliIo } from '../command'
import { UsageError } from '../usage-error'
import { EXIT_NOT_RUN, exitCodeOf } from './exec-report'

/** A read waits this long for new output before asking again (the hub answers at once when there is some). */
const OUTPUT_WAIT_MS = 1_000

/**
 * `shellgate ticket T`: what a client's shell tool runs after the hook allowed a command (issue 20).
 * The hub runs the command the ticket stands for (never anything named here), once; its output is
 * printed as it comes, and this process exits with the command's exit code.
 */
export const ticketCommand: CliCommand = {
  usage: [
    'Usage: shellgate ticket TICKET',
    '',
    "  What Shellgate's hook rewrites an allowed command to: the running Shellgate runs exactly the",
    '  command it decided, once, in its sandbox, and this prints its output as it comes and exits with',
    '  its exit code. A used, expired (2 minutes) or unknown ticket is refused; nothing runs. Killing',
    '  this process stops the command. Agents may not run it themselves.',
  ].join('\n'),
  async run(argv, io) {
    const [ticket, ...extra] = argv
    if (ticket === undefined || extra.length > 0 || !TICKET_PATTERN.test(ticket))
      throw new UsageError('shellgate ticket: expected one ticket (sgt_…), as the hook wrote it')
    const hub = await connectToHub({ home: resolveShellgateHome(io.env) }).catch(() => null)
    if (!hub) {
      io.stderr('shellgate: Shellgate is not running, so this allowed command could not run; nothing ran\n')
      return EXIT_NOT_RUN
    }
    const hangUp = () => void hub.close()
    io.signal.addEventListener('abort', hangUp, { once: true })
    try {
      return await runAndStream(hub, ticket, io)
    } finally {
      io.signal.removeEventListener('abort', hangUp)
      // The output and exit code are in hand: no need to wait for the hub's side of the close.
      hub.leave()
    }
  },
}

async function runAndStream(hub: HubConnection, ticket: string, io: CliIo): Promise<number> {
  // Names this run's output stream between us and the hub (the call's own id is the hub's).
  const callId = randomSource()(16).toString('base64url')
  const write = bytesWriter(io)
  let ended = false
  const running = hub.client.request('hooks.runTicket', { ticket, callId }).finally(() => {
    ended = true
  })
  running.catch(() => undefined)
  let next = 0
  const readMore = async (waitMs: number) => {
    const chunk = await hub.client.request('hooks.ticketOutput', { callId, fromByte: next, waitMs })
    if (chunk.base64 !== '') write(Buffer.from(chunk.base64, 'base64'))
    next = chunk.nextByte
    return chunk.base64 !== ''
  }
  try {
    while (!ended) await readMore(OUTPUT_WAIT_MS)
    const { call, notes } = await running
    while (await readMore(0)) {}
    write.flush()
    for (const note of notes) io.stderr(`${note}\n`)
    return call.status === 'denied' ? EXIT_NOT_RUN : exitCodeOf(call.status, call.exitCode)
  } catch (error) {
    write.flush()
    if (io.signal.aborted) {
      io.stderr('shellgate: interrupted; Shellgate stopped the command\n')
      return 130
    }
    const refused = await running.then(
      () => null,
      (failure: unknown) => failure,
    )
    const reason = refused ?? error
    if (reason instanceof RpcError) {
      // The hub's words already say what happened ("this Shellgate ticket was already used…").
      io.stderr(`shellgate: ${reason.message.replace(/^hooks\.runTicket: /, '')}\n`)
      return EXIT_NOT_RUN
    }
    throw reason
  }
}

/** Output is bytes: passed through as they are, or decoded whole characters at a time for a text-only io. */
function bytesWriter(io: CliIo): ((bytes: Buffer) => void) & { flush(): void } {
  if (io.stdoutBytes) {
    const raw = io.stdoutBytes
    return Object.assign((bytes: Buffer) => raw(bytes), { flush: () => undefined })
  }
  const decoder = new StringDecoder('utf8')
  return Object.assign((bytes: Buffer) => io.stdout(decoder.write(bytes)), {
    flush: () => {
      const rest = decoder.end()
      if (rest) io.stdout(rest)
    },
  })
}
