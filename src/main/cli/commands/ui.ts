import { resolveShellgateHome } from '../../core/paths'
import { runningHubAddress } from '../../hub/hub-address'
import { HubError } from '../../hub/hub-error'
import { RpcError } from '../../../shared/ipc/errors'
import { parseCommandArgs } from '../args'
import type { CliCommand } from '../command'
import { EXIT_USAGE, UsageError } from '../usage-error'

/** Exit code when no hub runs for this home: nothing to give an address for. */
export const EXIT_NO_HUB = 3

export const uiCommand: CliCommand = {
  summary: "a fresh address for the running Shellgate's UI (for another browser)",
  usage: [
    'Usage: shellgate ui [--json]',
    '',
    '  Asks the Shellgate running for SHELLGATE_HOME (shellgate serve) for a fresh UI address and',
    '  prints "Shellgate UI: <url>". Exits 3 when none is running (start one with shellgate serve).',
    '  --json  print {url, hubId}',
  ].join('\n'),
  async run(argv, io) {
    const { flags, positionals, rest } = parseCommandArgs('ui', argv, { json: { type: 'boolean' } })
    if (positionals.length > 0 || rest !== null) throw new UsageError('shellgate ui: takes no arguments')
    const home = resolveShellgateHome(io.env)
    let address: Awaited<ReturnType<typeof runningHubAddress>>
    try {
      address = await runningHubAddress(home)
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
    if (!address) {
      io.stderr(`shellgate ui: no Shellgate is running for ${home}; start one with shellgate serve\n`)
      return EXIT_NO_HUB
    }
    if (address.url === null) {
      io.stderr(
        `shellgate ui: Shellgate runs for ${home} as the desktop app, which has no browser UI; use its window\n`,
      )
      return EXIT_NO_HUB
    }
    io.stdout(flags.json ? `${JSON.stringify(address)}\n` : `Shellgate UI: ${address.url}\n`)
    return 0
  },
}
