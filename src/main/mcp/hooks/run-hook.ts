import { resolveShellgateHome } from '../../core/paths'
import { connectToHub, type HubConnection } from '../../hub/hub-client'
import { HubError } from '../../hub/hub-error'
import type { HookAnswer, HookClient } from './hook-client'
import { HOOK_INPUT_MAX_BYTES } from './hook-limits'
import { selfInvocation } from './self-invocation'

/** Claude Code's hook timeout defaults to 600 s; answering just before it keeps our answer the one used. */
export const HOOK_WAIT_DEFAULT_MS = 590_000
export { HOOK_INPUT_MAX_BYTES }

/** `cd` with one plain word or none: nothing runs but the move (judged unsandboxed, as it is). */
const BARE_CD = /^\s*cd(?:\s+[\w@%+=:,./~-]+)?\s*$/

/** The hook's stdin: the process stream, or what the hook's own entry read from fd 0. */
export type HookInput = AsyncIterable<Buffer | string> | Iterable<Buffer | string>

export interface HookIo {
  stdin: HookInput | null
  env: NodeJS.ProcessEnv
  /**
   * false: answer as for a client that cannot rewrite its tool input (`--no-rewrite`, for a client
   * version that ignores the rewrite), so the agent runs an allowed command itself.
   */
  rewrite?: boolean
  /** Diagnostics only; stdout carries the decision JSON alone. */
  stderr: (text: string) => void
}

/**
 * Reads the hook JSON, asks the hub, and returns the one object to print. It never throws: a
 * hub that is down, input it cannot read, or any error becomes the client's `undecided` answer.
 */
export async function answerHook(client: HookClient, io: HookIo): Promise<Record<string, unknown>> {
  const undecided = (reason: string): Record<string, unknown> => {
    io.stderr(`shellgate hook: ${reason}\n`)
    return client.render({ decision: client.undecided, reason })
  }
  try {
    const text = await readInput(io.stdin)
    if (text === null)
      return undecided(
        `Shellgate could not read the hook input (over ${HOOK_INPUT_MAX_BYTES} bytes or no stdin)`,
      )
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      return undecided('Shellgate could not read the hook input: it is not JSON')
    }
    const parsed = client.parse(json)
    if (parsed.kind === 'other') return client.noOpinion()
    if (parsed.kind === 'answered') return client.render(parsed.answer)
    if (parsed.kind === 'invalid')
      return undecided(`Shellgate could not read the hook input: ${parsed.reason}`)
    const home = resolveShellgateHome(io.env)
    // A home that cannot even be looked at (not a folder) is one no hub runs for: try to start one,
    // which then fails with its own reason. A foreign or unsafe endpoint is refused as it is.
    const running = await connectToHub({ home }).catch((error: unknown) => {
      if (error instanceof HubError) throw error
      return null
    })
    const hub = running ?? (await startHubFor(home, parsed.question.cwd, io))
    if (typeof hub === 'string') return undecided(hub)
    const waitMs = hookWaitMs(io.env)
    const { question } = parsed
    const rewrite =
      client.canRewrite &&
      io.rewrite !== false &&
      question.cannotRewrite !== true &&
      // A bare `cd DIR` is for the agent's own shell to move; in a ticket it would move nothing.
      !BARE_CD.test(question.command)
    try {
      const answer = await Promise.race([
        hub.client.request('hooks.decide', {
          agent: { name: client.agentName },
          agentSessionId: question.agentSessionId,
          workspace: question.cwd,
          command: question.command,
          ...(question.description ? { description: question.description } : {}),
          ...(rewrite ? { rewrite: true } : {}),
          // A ticket's run reads no input from the agent's terminal; the agent's own shell does.
          ...(question.terminal && !rewrite ? { terminal: true } : {}),
          ...(question.timeoutMs ? { timeoutMs: question.timeoutMs } : {}),
          // The hub finds the agent among this process's ancestors: one conversation with its MCP calls.
          pid: process.pid,
        }),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), waitMs).unref()),
      ])
      if (!answer) return undecided(`nobody answered in Shellgate within ${Math.round(waitMs / 1000)} s`)
      const decided: HookAnswer = {
        decision: answer.decision,
        reason:
          answer.decision === 'allow'
            ? `Shellgate: ${answer.reason}${answer.ticket ? '; it runs in Shellgate' : ''}`
            : answer.reason,
        ...(answer.ticket
          ? {
              rewrite: {
                command: selfInvocation(['ticket', answer.ticket], io.env),
                toolInput: question.toolInput,
              },
            }
          : {}),
      }
      return client.render(decided)
    } finally {
      // Closing withdraws a card nobody answered: the hub stops waiting when we leave. Nothing to
      // wait for after it: the answer is in hand, and the agent waits for this process to end.
      hub.leave()
    }
  } catch (error) {
    return undecided(`Shellgate hook error: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/**
 * issue 20: no hub yet, so one is started as `shellgate mcp` starts it (detached, browser mode,
 * no login code in any log) and opens a login once; a reason when none could start.
 */
async function startHubFor(home: string, workspace: string, io: HookIo): Promise<HubConnection | string> {
  try {
    // The hub runs the same CLI this process runs (built, or from source under its loader).
    const cliArgv = [...process.execArgv, process.argv[1] ?? '']
    // Loaded only here: starting a hub needs child_process, which an answer from a running one does not.
    const { startDetachedHub } = await import('../../hub/start-hub')
    const { uiUrl } = await startDetachedHub({ home, workspace, env: io.env, cliArgv })
    const connected = await connectToHub({ home })
    if (!connected) return `Shellgate could not be started for ${home}: its hub did not accept a connection`
    io.stderr(`shellgate hook: started Shellgate (${uiUrl ?? 'the desktop app'}); approve commands there\n`)
    if (io.env.SHELLGATE_NO_OPEN !== '1' && uiUrl !== null)
      await connected.client.request('hub.openUi', {}).catch(() => null)
    return connected
  } catch (error) {
    const why = error instanceof HubError ? `${error.message} [${error.code}]` : String(error)
    return `Shellgate is not running and could not be started (${why}), so nobody could approve this command there; start it with \`shellgate serve\` (or the app)`
  }
}

function hookWaitMs(env: NodeJS.ProcessEnv): number {
  const raw = Number(env.SHELLGATE_HOOK_WAIT_MS)
  return Number.isSafeInteger(raw) && raw > 0 ? raw : HOOK_WAIT_DEFAULT_MS
}

async function readInput(stdin: HookInput | null): Promise<string | null> {
  if (!stdin) return null
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer)
    size += buffer.length
    if (size > HOOK_INPUT_MAX_BYTES) return null
    chunks.push(buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}
