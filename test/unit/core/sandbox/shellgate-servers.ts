import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { type BrowserServer, startBrowserServer } from '../../../../src/main/browser-mode/browser-server'
import { type CoreOptions, createCore } from '../../../../src/main/core/app'
import { sanitizeEntryEnv } from '../../../../src/main/core/env/sanitize-entry'
import { APP_VERSION } from '../../../../src/main/core/version'
import { hubEndpoint } from '../../../../src/main/hub/endpoint'
import { claimHub } from '../../../../src/main/hub/hub-server'
import { createIpcHost, type IpcHost } from '../../../../src/main/ipc/host'
import { FIXTURE_ROOT } from './sandbox-fixture'

/** What a sandboxed command must never reach: a real hub socket and a real browser-mode port, in this process. */
export interface ShellgateServers {
  root: string
  /** SHELLGATE_HOME (the audit log, settings and the hub's run/ folder). */
  home: string
  /** HOME: the same folder as SHELLGATE_HOME unless ServersPlacement says otherwise. */
  userHome: string
  workspace: string
  host: IpcHost
  hubSocket: string
  browserPort: number
  browser: BrowserServer
  close(): Promise<void>
}

/** Where the folders sit, relative to the fixture's root, and the browser server's clock. */
export interface ServersPlacement {
  userHome?: string
  shellgateHome?: string
  workspace?: string
  now?: () => number
}

/**
 * A core, its hub endpoint and its browser-mode server, as `shellgate serve` runs them, on folders
 * under /var/tmp (never /tmp: every sandbox has a private /tmp, which would hide the hub socket on
 * its own and let an unreachability test pass for the wrong reason).
 */
export async function startShellgateServers(
  sandbox: CoreOptions['sandbox'] = {},
  placement: ServersPlacement = {},
): Promise<ShellgateServers> {
  const root = realpathSync(mkdtempSync(join(FIXTURE_ROOT, 'shellgate-servers-')))
  const home = join(root, placement.shellgateHome ?? 'home')
  const userHome = join(root, placement.userHome ?? 'home')
  const workspace = join(root, placement.workspace ?? 'ws')
  const renderer = join(root, 'renderer')
  for (const dir of [home, userHome, workspace, renderer]) mkdirSync(dir, { recursive: true })
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: userHome,
    SHELL: '/bin/bash',
    SHELLGATE_HOME: home,
  }
  const host = await createIpcHost((hub) =>
    createCore({
      workspace,
      env: sanitizeEntryEnv(env, 'linux'),
      runtime: 'browser',
      electronVersion: null,
      captureLoginShell: false,
      emit: hub.emit,
      sandbox,
    }),
  )
  const claimed = await claimHub({ home, platform: 'linux', warn: () => undefined })
  if (claimed.kind !== 'claimed') throw new Error('a hub already runs in a fresh temp home')
  const browser = await startBrowserServer({
    rendererDir: renderer,
    dispatcher: host.dispatcher,
    hub: host.hub,
    port: 0,
    now: placement.now,
  })
  const running = await claimed.claim.serve({
    dispatcher: host.dispatcher,
    hub: host.hub,
    version: APP_VERSION,
    uiUrl: `${browser.origin}/`,
  })
  return {
    root,
    home,
    userHome,
    workspace,
    host,
    hubSocket: hubEndpoint({ home, platform: 'linux', user: userInfo().username }).path,
    browserPort: browser.port,
    browser,
    async close() {
      await running.close()
      await browser.close()
      await host.core.dispose()
      rmSync(root, { recursive: true, force: true })
    },
  }
}
