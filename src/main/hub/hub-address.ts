import type { UiOpened } from '../../shared/ipc/domains/hub'
import { connectToHub } from './hub-client'
import { HubError } from './hub-error'

/** What a running hub offers: its bare UI address, or none when it is the desktop app (no browser UI). */
export interface RunningHubAddress {
  /** The origin only: a login code never crosses the hub socket (issue 20). */
  url: string | null
  hubId: string
}

/** A running hub's UI address, or null when no hub serves this home. */
export async function runningHubAddress(home: string): Promise<RunningHubAddress | null> {
  const connection = await connectToHub({ home })
  if (!connection) return null
  await connection.close()
  return { url: connection.uiUrl, hubId: connection.hubId }
}

/**
 * Has the running hub open a fresh login address in the person's browser; null when no hub
 * serves this home, `url: null` when it is the desktop app (its window is the UI).
 */
export async function openRunningHubUi(
  home: string,
): Promise<(UiOpened & { hubId: string }) | { url: null; hubId: string } | null> {
  const connection = await connectToHub({ home })
  if (!connection) return null
  try {
    if (connection.uiUrl === null) return { url: null, hubId: connection.hubId }
    const opened = await connection.client.request('hub.openUi', {})
    return { ...opened, hubId: connection.hubId }
  } finally {
    await connection.close()
  }
}

/** A hub that holds the lock may still be starting: wait for its endpoint, within a bound. */
export async function waitForRunningHubAddress(
  home: string,
  pid: number | null,
  timeoutMs: number,
): Promise<RunningHubAddress> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const address = await runningHubAddress(home)
    if (address) return address
    if (Date.now() >= deadline)
      throw new HubError(
        'hub_not_ready',
        `process ${pid ?? '(unknown)'} holds ${home}/run/hub.lock but no hub answered within ${timeoutMs} ms; if no Shellgate runs, remove that file`,
      )
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** `shellgate serve: <message> [code]` — a coded refusal is one line, exit 2. */
export function hubErrorLine(command: string, error: HubError): string {
  return `shellgate ${command}: ${error.message} [${error.code}]\n`
}
