import { PortBusyError, startBrowserServer } from '../../browser-mode/browser-server'
import { openInSystemBrowser } from '../../browser-mode/system-opener'
import { locateRendererDir } from '../../browser-mode/renderer-dir'
import { createCore } from '../../core/app'
import { sanitizeEntryEnv } from '../../core/env/sanitize-entry'
import { resolveShellgateHome } from '../../core/paths'
import { createIpcHost } from '../../ipc/host'
import { createWorkspaceGate } from '../../ipc/workspace-gate'
import { integerFlag, parseCommandArgs } from '../args'
import type { CliCommand } from '../command'
import { EXIT_USAGE, UsageError } from '../usage-error'
import { resolveWorkspaceFlag } from '../workspace-flag'

export const serveCommand: CliCommand = {
  summary: 'serve the Shellgate UI on 127.0.0.1 (browser mode) until Ctrl+C',
  usage: [
    'Usage: shellgate serve [--port N] [--workspace DIR] [--open]',
    '',
    '  --port N         port on 127.0.0.1 (default: a free one)',
    '  --workspace DIR  the workspace commands run in (default: the UI asks, offering recent ones)',
    '  --open           open the UI with the system browser',
    '',
    'Prints "Shellgate UI: <url>"; the URL carries a per-run token that the page trades for a cookie.',
  ].join('\n'),
  async run(argv, io) {
    const { flags, positionals, rest } = parseCommandArgs('serve', argv, {
      port: { type: 'string' },
      workspace: { type: 'string' },
      open: { type: 'boolean' },
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

    const env = sanitizeEntryEnv(io.env, process.platform)
    const makeCore = (chosen: string, hub: Parameters<Parameters<typeof createIpcHost>[0]>[0]) =>
      createCore({ workspace: chosen, env, runtime: 'browser', electronVersion: null, emit: hub.emit })
    // Without --workspace the UI asks which folder to work in; nothing runs until it is chosen.
    const host =
      workspace === null
        ? createWorkspaceGate({ home: resolveShellgateHome(env), makeCore })
        : await createIpcHost((hub) => makeCore(workspace, hub)).then((made) => ({
            ...made,
            dispose: () => made.core.dispose(),
          }))
    let server: Awaited<ReturnType<typeof startBrowserServer>>
    try {
      server = await startBrowserServer({ rendererDir, dispatcher: host.dispatcher, hub: host.hub, port })
    } catch (error) {
      await host.dispose()
      if (error instanceof PortBusyError) {
        io.stderr(`shellgate serve: ${error.message}; choose another with --port\n`)
        return EXIT_USAGE
      }
      throw error
    }
    io.stdout(`Shellgate UI: ${server.url}\n`)
    if (flags.open) {
      const opened = await openInSystemBrowser(server.url, { platform: process.platform, env: io.env })
      if (!opened.ok) io.stderr(`shellgate serve: ${opened.reason}; open the URL above yourself\n`)
    }

    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve()
      io.signal.addEventListener('abort', () => resolve(), { once: true })
    })
    await server.close()
    await host.dispose()
    io.stderr('Shellgate UI stopped.\n')
    return 0
  },
}
