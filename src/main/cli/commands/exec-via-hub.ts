import type { BashCall } from '../../../shared/ipc/domains/bash'
import { APP_VERSION } from '../../core/version'
import type { HubConnection } from '../../hub/hub-client'
import type { CliIo } from '../command'
import { EXIT_NOT_RUN, exitCodeOf } from './exec-report'

/**
 * `shellgate exec` while a hub runs for this home: the hub is the one writer of the audit log,
 * sessions and tasks, so the command goes to it as an agent call in a session of its own. The hub
 * decides with its mode and rules; a command that needs approval waits for the person's answer in
 * the hub's UI (the CLI cannot approve: it is an agent there).
 */
export async function execViaHub(
  hub: HubConnection,
  input: { command: string; cwd: string; timeout?: number; background: boolean; json: boolean; io: CliIo },
): Promise<number> {
  const { client } = hub
  const { io } = input
  const session = await client.request('sessions.create', {
    title: 'shellgate exec',
    workspace: input.cwd,
    agent: { name: 'shellgate exec', version: APP_VERSION },
    // Run from an agent's shell, it joins that agent's conversation (issue 22.4).
    run: { pid: process.pid },
    channel: 'exec',
  })
  // Ctrl+C drops the connection; the hub then withdraws a card still waiting and kills a foreground run.
  const hangUp = () => void hub.close()
  io.signal.addEventListener('abort', hangUp, { once: true })
  // Say where to answer, once, when the hub puts the command in front of the person.
  const stopWatching = client.on('approvals.requested', (approval) => {
    if (approval.sessionId !== session.id) return
    stopWatching()
    io.stderr(
      `shellgate exec: waiting for your approval in Shellgate${hub.uiUrl ? ` (${hub.uiUrl})` : ''}; Ctrl+C leaves it to the person there\n`,
    )
  })
  // The run's status once it answered: it says whether a background task keeps the session open.
  let ranAs: BashCall['status'] | null = null
  try {
    const call = await client
      .request('bash.run', {
        sessionId: session.id,
        command: input.command,
        ...(input.timeout === undefined ? {} : { timeout: input.timeout }),
        ...(input.background ? { run_in_background: true } : {}),
      })
      .catch((error: unknown) => {
        if (io.signal.aborted) return null
        throw error
      })
    if (!call) {
      io.stderr('shellgate exec: interrupted; the hub cancelled the command\n')
      return EXIT_NOT_RUN
    }
    ranAs = call.status
    // Both streams went to one file; its text (the last 4 MiB when longer) is what stdout was.
    const output =
      call.outputPath && call.status !== 'backgrounded'
        ? await client.request('bash.output', { sessionId: session.id, callId: call.id })
        : null
    const stdout = output ? output.text : call.status === 'denied' ? '' : call.content
    report(io, input.json, call, stdout, (output?.skippedBytes ?? 0) > 0)
    if (call.status === 'denied') return EXIT_NOT_RUN
    if (call.status === 'backgrounded') return 0
    return exitCodeOf(call.status, call.exitCode)
  } finally {
    stopWatching()
    io.signal.removeEventListener('abort', hangUp)
    // A background task belongs to its session: the session stays open while the task runs. The
    // history is asked only when the run never answered (one round trip less on every exec).
    const backgrounded =
      ranAs !== null
        ? ranAs === 'backgrounded'
        : (await client.request('bash.history', { sessionId: session.id }).catch(() => [])).some(
            (each) => each.status === 'backgrounded',
          )
    if (!backgrounded)
      await client.request('sessions.close', { sessionId: session.id }).catch(() => undefined)
  }
}

function report(io: CliIo, json: boolean, call: BashCall, stdout: string, truncated: boolean): void {
  if (json) {
    io.stdout(
      `${JSON.stringify({
        status: call.status,
        exitCode: call.exitCode,
        exitSignal: call.exitSignal,
        stdout,
        stderr: '',
        truncated,
        ...(call.outputPath ? { outputPath: call.outputPath } : {}),
        durationMs: call.durationMs ?? 0,
        ...(call.taskId ? { taskId: call.taskId } : {}),
        isError: call.isError,
        content: call.content,
        decision: call.decision,
        via: 'hub',
      })}\n`,
    )
    return
  }
  if (call.status === 'denied') {
    io.stderr(`shellgate exec: not run: ${call.content}\n`)
    return
  }
  if (call.status === 'backgrounded') {
    io.stderr(
      `shellgate exec: background task ${call.taskId} runs in the hub; output in ${call.outputPath}\n`,
    )
    return
  }
  io.stdout(stdout)
  if (call.status !== 'completed' && call.status !== 'failed') io.stderr(`shellgate exec: ${call.status}\n`)
}
