import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCore } from '../../../src/main/core/app'
import { sanitizeEntryEnv } from '../../../src/main/core/env/sanitize-entry'
import { connectToHub, type HubConnection } from '../../../src/main/hub/hub-client'
import { claimHub, type RunningHub } from '../../../src/main/hub/hub-server'
import { createIpcHost, type IpcHost } from '../../../src/main/ipc/host'

export interface InProcessHub {
  home: string
  workspace: string
  host: IpcHost
  running: RunningHub
  /** A new agent connection on the hub socket. */
  connectAgent(): Promise<HubConnection>
  close(): Promise<void>
}

/** A real core behind a real hub socket in a temp home; the login-shell capture is off. */
export async function startInProcessHub(
  options: {
    uiUrl?: string | null /** HOME of the core; default: the hub's home. */
    userHome?: string
  } = {},
): Promise<InProcessHub> {
  const workspace = await mkdtemp(join(tmpdir(), 'shellgate-hub-ws-'))
  const home = await mkdtemp(join(tmpdir(), 'shellgate-hub-home-'))
  const claimed = await claimHub({ home, platform: 'linux', warn: () => undefined })
  if (claimed.kind !== 'claimed') throw new Error('a fresh home already has a hub')
  const host = await createIpcHost((hub) =>
    createCore({
      workspace,
      env: sanitizeEntryEnv(
        {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: options.userHome ?? home,
          SHELL: '/bin/bash',
          SHELLGATE_HOME: home,
        },
        'linux',
      ),
      runtime: 'browser',
      electronVersion: null,
      captureLoginShell: false,
      emit: hub.emit,
    }),
  )
  const uiUrl = options.uiUrl === undefined ? 'http://127.0.0.1:1/' : options.uiUrl
  const running = await claimed.claim.serve({
    dispatcher: host.dispatcher,
    hub: host.hub,
    version: 'test',
    uiUrl,
  })
  host.setHubControl({
    hello: () => ({ hubId: running.info.hubId, version: 'test', uiUrl }),
    mintUiAddress: () => uiUrl ?? 'unreachable: hub.mintUiAddress refuses a hub without UI',
    openUi: async () => ({ opened: false, url: uiUrl ?? '', message: 'the test hub opens no browser' }),
  })
  const connections: HubConnection[] = []
  return {
    home,
    workspace,
    host,
    running,
    async connectAgent() {
      const connection = await connectToHub({ home })
      if (!connection) throw new Error('the hub did not answer')
      connections.push(connection)
      return connection
    },
    async close() {
      for (const connection of connections) await connection.close()
      await running.close()
      await host.core.dispose()
      await rm(workspace, { recursive: true, force: true })
      await rm(home, { recursive: true, force: true })
    },
  }
}

export async function waitFor<T>(read: () => T | undefined | null | false, what: string): Promise<T> {
  const deadline = Date.now() + 15_000
  for (;;) {
    const value = read()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
