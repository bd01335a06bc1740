import { PortBusyError, startBrowserServer } from '../../browser-mode/browser-server'
import { openInSystemBrowser } from '../../browser-mode/system-opener'
import { locateRendererDir } from '../../browser-mode/renderer-dir'
import { createCore } from '../../core/app'
import { sanitizeEntryEnv } from '../../core/env/sanitize-entry'
import { createIpcHost } from '../../ipc/host'
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
    '  --workspace DIR  the workspace commands run in (default: the current directory)',
    '  --open           open the UI with the system browser',
    '',
    'Prints "Shellgate UI: <url>"; the URL carries a one-time login code (used once, for 10 minutes).',
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
    const workspace = resolveWorkspaceFlag('serve', flags.workspace, io.cwd)
    const rendererDir = locateRendererDir(io.env)
    if (!rendererDir)
      throw new UsageError(
        'shellgate serve: the UI is not built (out/renderer is missing); run `npm run build`',
      )

    const host = await createIpcHost((hub) =>
      createCore({
        workspace,
        env: sanitizeEntryEnv(io.env, process.platform),
        runtime: 'browser',
        electronVersion: null,
        // A warning (a planted file refused, a bad settings edit) also reaches the terminal: it may
        // come before any browser is connected to show it.
        emit: (name, payload) => {
          if (name === 'app.notice')
            io.stderr(`shellgate serve: ${(payload as { message: string }).message}\n`)
          hub.emit(name, payload)
        },
      }),
    )
    let server: Awaited<ReturnType<typeof startBrowserServer>>
    try {
      server = await startBrowserServer({ rendererDir, dispatcher: host.dispatcher, hub: host.hub, port })
    } catch (error) {
      await host.core.dispose()
      if (error instanceof PortBusyError) {
        io.stderr(`shellgate serve: ${error.message}; choose another with --port\n`)
        return EXIT_USAGE
      }
      throw error
    }
    io.stdout(`Shellgate UI: ${server.mintLoginUrl()}\n`)
    if (flags.open) {
      // Its own code: the opener's argv is visible in `ps`, but the code is spent once the browser uses it.
      const opened = await openInSystemBrowser(server.mintLoginUrl(), {
        platform: process.platform,
        env: io.env,
      })
      if (!opened.ok) io.stderr(`shellgate serve: ${opened.reason}; open the URL above yourself\n`)
    }

    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve()
      io.signal.addEventListener('abort', () => resolve(), { once: true })
    })
    await server.close()
    await host.core.dispose()
    io.stderr('Shellgate UI stopped.\n')
    return 0
  },
}
