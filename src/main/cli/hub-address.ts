import { connectToHub } from '../hub/hub-client'
import { HubError } from '../hub/hub-error'

/** A running hub's fresh UI address, or null when no hub serves this home. */
export async function runningHubAddress(home: string): Promise<{ url: string; hubId: string } | null> {
  const connection = await connectToHub({ home })
  if (!connection) return null
  try {
    const { url } = await connection.client.request('hub.mintUiAddress', {})
    return { url, hubId: connection.hubId }
  } finally {
    await connection.close()
  }
}

/** A hub that holds the lock may still be starting: wait for its endpoint, within a bound. */
export async function waitForRunningHubAddress(
  home: string,
  timeoutMs: number,
): Promise<{ url: string; hubId: string }> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const address = await runningHubAddress(home)
    if (address) return address
    if (Date.now() >= deadline)
      throw new HubError(
        'hub_not_ready',
        `a hub holds the lock for ${home} but did not answer within ${timeoutMs} ms`,
      )
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** `shellgate serve: <message> [code]` — a coded refusal is one line, exit 2. */
export function hubErrorLine(command: string, error: HubError): string {
  return `shellgate ${command}: ${error.message} [${error.code}]\n`
}
