import { type Readable, Writable } from 'node:stream'
import { resolveShellgateHome } from '../../core/paths'
import { connectToHub, type HubConnection } from '../../hub/hub-client'
import { HubError } from '../../hub/hub-error'
import { startDetachedHub } from '../../hub/start-hub'
import { resolveMcpDeadline } from '../../mcp/mcp-deadline'
import { startMcpServer } from '../../mcp/mcp-server'
import { parseCommandArgs } from '../args'
import type { CliCommand, CliIo } from '../command'
import { hubErrorLine } from '../../hub/hub-address'
import { EXIT_USAGE, UsageError } from '../usage-error'
import { resolveWorkspaceFlag } from '../workspace-flag'

const USAGE = [
  'Usage: shellgate mcp [--workspace DIR] [--name LABEL]',
  '',
  '  An MCP server on stdio for an agent (Claude Code, Codex, Gemini CLI, any MCP client). Its tools:',
  '  bash, task_output, task_stop, list_tasks, check_command. Every command goes through the one',
  '  Shellgate hub for this SHELLGATE_HOME, where the person approves it; when no hub runs, one is',
  '  started (browser mode, detached: it outlives this process), its bare UI address is printed to',
  '  stderr and a login address opened once with the system browser (not when SHELLGATE_NO_OPEN=1).',
  '  stderr never carries a login code (the agent keeps it): `shellgate ui` prints one.',
  '',
  '  --workspace DIR  where commands run when the client names no MCP root (default: the current directory)',
  "  --name LABEL     what the person sees for this agent (default: the client's own name and version)",
  '',
  '  SHELLGATE_MCP_DEADLINE_MS  every tool call answers within this (default 45000): a command still',
  '                             running then continues as a background task.',
  '',
  'stdout carries only MCP messages; everything else goes to stderr.',
].join('\n')

export const mcpCommand: CliCommand = {
  usage: USAGE,
  async run(argv, io) {
    const { flags, positionals, rest } = parseCommandArgs('mcp', argv, {
      workspace: { type: 'string' },
      name: { type: 'string' },
    })
    if (positionals.length > 0 || rest)
      throw new UsageError(`shellgate mcp: unexpected argument "${positionals[0] ?? '--'}"`)
    const label = typeof flags.name === 'string' ? flags.name.trim() : null
    if (label !== null && (label === '' || label.length > 100))
      throw new UsageError('shellgate mcp: --name must be 1-100 characters')
    const deadline = resolveMcpDeadline(io.env)
    if (!deadline.ok) throw new UsageError(`shellgate mcp: ${deadline.message}`)
    const workspace = resolveWorkspaceFlag('mcp', flags.workspace, io.cwd)
    if (!io.stdin)
      throw new UsageError(
        'shellgate mcp: stdin is a terminal; run it from an MCP client (see shellgate connect)',
      )

    let hub: HubConnection
    try {
      hub = await connectOrStartHub(io, workspace)
    } catch (error) {
      if (!(error instanceof HubError)) throw error
      io.stderr(hubErrorLine('mcp', error))
      return EXIT_USAGE
    }
    const stdout = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        io.stdout(chunk.toString('utf8'))
        callback()
      },
    })
    const server = await startMcpServer({
      client: hub.client,
      stdin: io.stdin as Readable,
      stdout,
      log: (line) => io.stderr(`${line}\n`),
      workspace,
      label,
      deadlineMs: deadline.ms,
    })
    const ended = await new Promise<'client' | 'hub' | 'signal'>((resolve) => {
      void server.closed.then(() => resolve('client'))
      hub.onClose(() => resolve('hub'))
      io.signal.addEventListener('abort', () => resolve('signal'), { once: true })
    })
    // Closing our hub connection cancels our foreground calls there; background tasks stay in the hub.
    await server.close().catch(() => undefined)
    await hub.close().catch(() => undefined)
    if (ended === 'hub') {
      io.stderr('shellgate mcp: the Shellgate hub went away; restart the MCP server to reconnect\n')
      return 1
    }
    return 0
  },
}

async function connectOrStartHub(io: CliIo, workspace: string): Promise<HubConnection> {
  const home = resolveShellgateHome(io.env)
  const running = await connectToHub({ home })
  if (running) return running
  // The hub runs the same CLI this process runs (built, or from source under its loader).
  const cliArgv = [...process.execArgv, process.argv[1] ?? '']
  const { uiUrl } = await startDetachedHub({ home, workspace, env: io.env, cliArgv })
  const connected = await connectToHub({ home })
  if (!connected)
    throw new HubError('hub_not_ready', `the hub started for ${home} did not accept a connection`)
  // Our stderr belongs to the agent (Claude Code keeps it in its MCP logs): the bare address only.
  // The login is opened by the hub itself, so its code never passes through this agent's process.
  io.stderr(
    `Shellgate UI: ${uiUrl ?? '(the desktop app)'}\nshellgate mcp: started Shellgate; \`shellgate ui\` opens a login in your browser\n`,
  )
  if (io.env.SHELLGATE_NO_OPEN !== '1' && uiUrl !== null) {
    const opened = await connected.client.request('hub.openUi', {}).catch(() => null)
    if (!opened?.opened)
      io.stderr(
        `shellgate mcp: ${opened?.message ?? 'could not open the UI'}; run \`shellgate ui\` to try again\n`,
      )
  }
  return connected
}
