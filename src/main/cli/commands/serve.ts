import type { ShellgateContract } from '../../../shared/ipc/contract'
import { PortBusyError, startBrowserServer } from '../../browser-mode/browser-server'
import { openInSystemBrowser } from '../../browser-mode/system-opener'
import { locateRendererDir } from '../../browser-mode/renderer-dir'
import { createCore } from '../../core/app'
import { sanitizeEntryEnv } from '../../core/env/sanitize-entry'
import { resolveShellgateHome } from '../../core/paths'
import { APP_VERSION } from '../../core/version'
import { HubError } from '../../hub/hub-error'
import { claimHub } from '../../hub/hub-server'
import type { EventHub } from '../../ipc/event-hub'
import { createIpcHost } from '../../ipc/host'
import { createWorkspaceGate } from '../../ipc/workspace-gate'
import { integerFlag, parseCommandArgs } from '../args'
import type { CliCommand, CliIo } from '../command'
import {
  hubErrorLine,
  type RunningHubAddress,
  openRunningHubUi,
  runningHubAddress,
  waitForRunningHubAddress,
} from '../../hub/hub-address'
import { EXIT_USAGE, UsageError } from '../usage-error'
import { resolveWorkspaceFlag } from '../workspace-flag'
import { watchAddressKey } from './serve-keys'

/** A hub that holds the lock but is still starting gets this long to answer. */
const RUNNING_HUB_WAIT_MS = 20_000

export const serveCommand: CliCommand = {
  usage: [
    'Usage: shellgate serve [--port N] [--workspace DIR] [--open] [--no-login-code]',
    '',
    '  --port N         port on 127.0.0.1 (default: a free one)',
    '  --workspace DIR  the workspace commands run in (default: the UI asks, offering recent ones)',
    '  --open           open the UI with the system browser',
    '  --no-login-code  print the bare address, without a login code (for output that goes to a log);',
    '                   `shellgate ui` prints a login address',
    '',
    'Prints "Shellgate UI: <url>"; the URL carries a one-time login code (used once, for 10 minutes).',
    'One Shellgate serves each SHELLGATE_HOME: when one is running, this prints a fresh address of its UI and exits 0.',
    'In a terminal, press u for a fresh address for another browser.',
  ].join('\n'),
  async run(argv, io) {
    const { flags, positionals, rest } = parseCommandArgs('serve', argv, {
      port: { type: 'string' },
      workspace: { type: 'string' },
      open: { type: 'boolean' },
      'no-login-code': { type: 'boolean' },
    })
    if (positionals.length > 0 || rest)
      throw new UsageError(`shellgate serve: unexpected argument "${positionals[0] ?? '--'}"`)
    const port = integerFlag('serve', 'port', flags.port) ?? 0
    if (port > 65_535) throw new UsageError(`shellgate serve: --port must be at most 65535, got ${port}`)
    const workspace =
      flags.workspace === undefined ? null : resolveWorkspaceFlag('serve', flags.workspace, io.cwd)
    const rendererDir = locateRendererDir(io.env)
    if (!rendererDir)
      throw new UsageError(
        'shellgate serve: the UI is not built (out/renderer is missing); run `npm run build`',
      )
    const home = resolveShellgateHome(io.env)
    try {
      return await serveOrFindHub({
        io,
        home,
        workspace,
        rendererDir,
        port,
        open: flags.open === true,
        printCodes: flags['no-login-code'] !== true,
      })
    } catch (error) {
      if (!(error instanceof HubError)) throw error
      io.stderr(hubErrorLine('serve', error))
      return EXIT_USAGE
    }
  },
}

async function serveOrFindHub(input: {
  io: CliIo
  home: string
  /** null: the UI asks which folder to work in; nothing runs until it is chosen. */
  workspace: string | null
  rendererDir: string
  port: number
  open: boolean
  /** false: what this prints goes to a log (a detached hub's run/hub.log), where a code must not sit. */
  printCodes: boolean
}): Promise<number> {
  const { io, home } = input
  const announceRunning = async (address: RunningHubAddress) => {
    if (address.url === null) {
      io.stderr(
        `shellgate serve: Shellgate is already running for ${home} as the desktop app; use its window (no second one started)\n`,
      )
      return 0
    }
    io.stdout(`Shellgate UI: ${address.url}\n`)
    io.stderr(
      `shellgate serve: Shellgate is already running for ${home}; this is its UI, no second one started\n`,
    )
    // A login code never crosses the hub socket (whoever runs this may be an agent): the running
    // hub opens one in the browser itself.
    if (input.open) {
      const opened = await openRunningHubUi(home).catch(() => null)
      if (opened && 'opened' in opened) io.stderr(`shellgate serve: ${opened.message}\n`)
    } else {
      io.stderr('shellgate serve: run `shellgate ui` to open a login in your browser\n')
    }
    return 0
  }
  const running = await runningHubAddress(home)
  if (running) return announceRunning(running)
  const claimed = await claimHub({
    home,
    platform: process.platform,
    warn: (message) => io.stderr(`shellgate serve: ${message}\n`),
  })
  if (claimed.kind === 'running')
    return announceRunning(await waitForRunningHubAddress(home, claimed.pid, RUNNING_HUB_WAIT_MS))
  const { claim } = claimed

  const env = sanitizeEntryEnv(io.env, process.platform)
  const makeCore = (workspace: string | null, hub: EventHub<ShellgateContract>) =>
    createCore({
      workspace,
      env,
      runtime: 'browser',
      electronVersion: null,
      // A warning (a planted file refused, a bad settings edit) also reaches the terminal: it may
      // come before any browser is connected to show it.
      emit: (name, payload) => {
        if (name === 'app.notice') io.stderr(`shellgate serve: ${(payload as { message: string }).message}\n`)
        hub.emit(name, payload)
      },
    })
  const { workspace } = input
  const host = await (workspace === null
    ? createWorkspaceGate({ home, makeCore })
    : createIpcHost((hub) => makeCore(workspace, hub)).then((made) => ({
        ...made,
        dispose: () => made.core.dispose(),
      }))
  ).catch(async (error: unknown) => {
    await claim.release()
    throw error
  })
  let server: Awaited<ReturnType<typeof startBrowserServer>>
  try {
    server = await startBrowserServer({
      rendererDir: input.rendererDir,
      dispatcher: host.dispatcher,
      hub: host.hub,
      port: input.port,
    })
  } catch (error) {
    await host.dispose()
    await claim.release()
    if (error instanceof PortBusyError) {
      io.stderr(`shellgate serve: ${error.message}; choose another with --port\n`)
      return EXIT_USAGE
    }
    throw error
  }
  const uiUrl = `http://127.0.0.1:${server.port}/`
  const hubServer = await claim
    .serve({ dispatcher: host.dispatcher, hub: host.hub, version: APP_VERSION, uiUrl })
    .catch(async (error: unknown) => {
      await server.close()
      await host.dispose()
      throw error
    })
  // Every address handed out carries its own one-time code: the browser `shellgate ui` opens, the u key.
  const mintLoginUrl = (): string => server.mintLoginUrl()
  host.setHubControl({
    hello: () => ({ hubId: hubServer.info.hubId, version: APP_VERSION, uiUrl }),
    mintUiAddress: mintLoginUrl,
    openUi: async () => {
      // Its own code, opened from here: the caller gets the bare address only.
      const opened = await openInSystemBrowser(mintLoginUrl(), { platform: process.platform, env: io.env })
      return opened.ok
        ? { opened: true, url: uiUrl, message: `opened a Shellgate login in your browser (${uiUrl})` }
        : {
            opened: false,
            url: uiUrl,
            message: `could not open your browser (${opened.reason}); a login address is printed only where you ran \`shellgate serve\` yourself (press u there for another)`,
          }
    },
  })

  io.stdout(
    input.printCodes
      ? `Shellgate UI: ${mintLoginUrl()}\n`
      : `Shellgate UI: ${uiUrl}\n(no login code here: run \`shellgate ui\` for a login address)\n`,
  )
  if (input.open) {
    // Its own code: the opener's argv is visible in `ps`, but the code is spent once the browser uses it.
    const opened = await openInSystemBrowser(mintLoginUrl(), { platform: process.platform, env: io.env })
    if (!opened.ok) io.stderr(`shellgate serve: ${opened.reason}; open the URL above yourself\n`)
  }
  const stopKeys = input.printCodes
    ? watchAddressKey(io, () => io.stdout(`Shellgate UI: ${mintLoginUrl()}\n`))
    : () => undefined

  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve()
    io.signal.addEventListener('abort', () => resolve(), { once: true })
  })
  stopKeys()
  await hubServer.close()
  await server.close()
  await host.dispose()
  io.stderr('Shellgate UI stopped.\n')
  return 0
}
