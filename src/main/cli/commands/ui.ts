import { resolveShellgateHome } from '../../core/paths'
import { openRunningHubUi } from '../../hub/hub-address'
import { HubError } from '../../hub/hub-error'
import { RpcError } from '../../../shared/ipc/errors'
import { parseCommandArgs } from '../args'
import type { CliCommand } from '../command'
import { EXIT_USAGE, UsageError } from '../usage-error'

/** Exit code when no hub runs for this home: nothing to give an address for. */
export const EXIT_NO_HUB = 3
/** The hub could not open a browser: the person gets a login where they started `serve` themselves. */
export const EXIT_NOT_OPENED = 4

export const uiCommand: CliCommand = {
  usage: [
    'Usage: shellgate ui [--json]',
    '',
    '  Has the Shellgate running for SHELLGATE_HOME open a fresh login address in your browser and',
    '  prints its bare address. The login code never reaches this command: an agent runs as the same',
    '  user and could run it too, so nothing here proves it is you. A login address is printed only by',
    '  a `shellgate serve` you started in your own terminal (press u there for another).',
    '  Exits 3 when none is running (start one with shellgate serve), 4 when no browser could be opened.',
    '  --json  print {opened, url, hubId, message}',
  ].join('\n'),
  async run(argv, io) {
    const { flags, positionals, rest } = parseCommandArgs('ui', argv, { json: { type: 'boolean' } })
    if (positionals.length > 0 || rest !== null) throw new UsageError('shellgate ui: takes no arguments')
    const home = resolveShellgateHome(io.env)
    let result: Awaited<ReturnType<typeof openRunningHubUi>>
    try {
      result = await openRunningHubUi(home)
    } catch (error) {
      if (error instanceof HubError) {
        io.stderr(`shellgate ui: ${error.message} [${error.code}]\n`)
        return EXIT_USAGE
      }
      if (error instanceof RpcError) {
        io.stderr(`shellgate ui: ${error.message} [${error.code}]\n`)
        return 1
      }
      throw error
    }
    if (!result) {
      io.stderr(`shellgate ui: no Shellgate is running for ${home}; start one with shellgate serve\n`)
      return EXIT_NO_HUB
    }
    if (result.url === null || !('opened' in result)) {
      io.stderr(
        `shellgate ui: Shellgate runs for ${home} as the desktop app, which has no browser UI; use its window\n`,
      )
      return EXIT_NO_HUB
    }
    if (flags.json) io.stdout(`${JSON.stringify(result)}\n`)
    else {
      io.stdout(`Shellgate UI: ${result.url}\n`)
      io.stderr(`shellgate ui: ${result.message}\n`)
    }
    return result.opened ? 0 : EXIT_NOT_OPENED
  },
}
