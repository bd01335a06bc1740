import { agentFamily } from '../../core/sessions/agent-runs'
import type { AgentClientStatus, SetupCheck } from '../../../shared/ipc/domains/agents'
import { codexHookTrust } from './codex-hook-trust'
import { CONNECT_CLIENTS, type ConnectClient, clientSetup } from './client-configs'
import { probeMcpServer } from './mcp-probe'
import { readClientConfig } from './read-client-config'
import { checkLauncher } from './shellgate-launcher'

type Env = Readonly<Record<string, string | undefined>>

export interface SetupStatusOptions {
  env: Env
  home: string
  /**
   * Whether a hub runs for this SHELLGATE_HOME. Without one the MCP check is not made: the server
   * would start a hub that outlives the check (the client starts one when it connects).
   */
  hubRunning: boolean
  /** The client's last call this Shellgate saw, ISO; null when never. */
  lastSeen(client: ConnectClient): Promise<string | null> | string | null
}

/** Settings → Agents and `shellgate doctor`: every client's setup, checked the way the client will use it. */
export function setupStatus(options: SetupStatusOptions): Promise<AgentClientStatus[]> {
  // One after another: each check starts processes, and the machine is the person's.
  return CONNECT_CLIENTS.reduce<Promise<AgentClientStatus[]>>(
    async (done, client) => [...(await done), await clientStatus(client, options)],
    Promise.resolve([]),
  )
}

async function clientStatus(client: ConnectClient, options: SetupStatusOptions): Promise<AgentClientStatus> {
  const { env, home } = options
  const config = await readClientConfig(client, env, home)
  const configured = config.files.every((file) => file.state === 'configured')
  const server = config.server
  const launcher = server
    ? { command: server.command, args: server.args.at(-1) === 'mcp' ? server.args.slice(0, -1) : server.args }
    : null

  let command: SetupCheck = { ok: false, detail: 'no MCP server entry names a command' }
  if (launcher) {
    const started = await checkLauncher({ ...launcher, onPath: false }, env)
    command = started.ok
      ? {
          ok: true,
          detail: `${[launcher.command, ...launcher.args].join(' ')} --version answered ${started.version} from /`,
        }
      : { ok: false, detail: started.reason }
  }

  let mcp: SetupCheck
  if (!server || command.ok !== true) mcp = { ok: false, detail: 'not checked: its command does not start' }
  else if (!options.hubRunning)
    mcp = {
      ok: null,
      detail:
        'not checked: no Shellgate is running for this SHELLGATE_HOME (the client starts one when it connects; start Shellgate and check again)',
    }
  else {
    const probed = await probeMcpServer(server, env)
    mcp = probed.ok
      ? {
          ok: true,
          detail: `answered initialize and listed ${probed.tools.length} tools (${probed.tools.join(', ')})`,
        }
      : { ok: false, detail: probed.reason }
  }

  const hook: SetupCheck =
    client === 'cursor'
      ? { ok: null, detail: 'Cursor has no pre-tool hook; its commands reach Shellgate through MCP only' }
      : config.hook !== null
        ? { ok: true, detail: `runs ${config.hook}` }
        : { ok: false, detail: `no hook runs \`shellgate hook ${client}\`` }
  const trusted: SetupCheck | null =
    client !== 'codex'
      ? null
      : config.hook === null
        ? { ok: false, detail: 'no hook to trust yet' }
        : await codexHookTrust({ env, home, hook: config.hook })

  // An untrusted Codex hook never runs: Codex's own Bash would bypass Shellgate.
  const healthy =
    configured && command.ok === true && mcp.ok !== false && hook.ok !== false && trusted?.ok !== false
  return {
    client,
    title: clientSetup(client, env, home).title,
    configured,
    files: config.files.map(({ path, role, state, command: runs }) => ({ path, role, state, command: runs })),
    command,
    mcp,
    hook,
    trusted,
    lastSeenAt: await options.lastSeen(client),
    fix: healthy
      ? null
      : trusted?.ok === false && config.hook !== null && configured && command.ok === true
        ? `open /hooks in Codex and trust "${config.hook}"`
        : `shellgate connect ${client} --write`,
  }
}

/** The agent names (clientInfo, or the hook's client) each client's calls arrive under, by family. */
export const CLIENT_AGENT_FAMILIES: Readonly<Record<ConnectClient, readonly string[]>> = {
  'claude-code': ['claude-code'],
  codex: ['codex'],
  gemini: ['gemini', 'gemini-cli'],
  cursor: ['cursor', 'cursor-vscode'],
}

/** The newest time each client was seen in these (agent name, ISO time) pairs. */
export function lastSeenBy(
  seen: Iterable<{ agent: string; at: string }>,
): (client: ConnectClient) => string | null {
  const newest = new Map<ConnectClient, string>()
  for (const { agent, at } of seen) {
    // The audit names an agent "<name> <version>"; sessions by name alone.
    const family = agentFamily(agent.split(' ')[0] ?? '')
    const client = CONNECT_CLIENTS.find((each) => CLIENT_AGENT_FAMILIES[each].includes(family))
    if (client && (newest.get(client) ?? '') < at) newest.set(client, at)
  }
  return (client) => newest.get(client) ?? null
}
