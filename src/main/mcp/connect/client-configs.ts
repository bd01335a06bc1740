import { join } from 'node:path'
import { claudeCodeHook } from '../hooks/claude-code-hook'
import { codexHook } from '../hooks/codex-hook'
import { geminiHook } from '../hooks/gemini-hook'
import { type Launcher, launcherText, PLAIN_LAUNCHER } from './shellgate-launcher'

/** One edit to one client config file: a JSON merge, or a TOML block appended once. */
export type ConfigEdit =
  | {
      kind: 'json'
      path: string
      /** Returns the merged document; must be idempotent (merging twice changes nothing). */
      merge: (current: Record<string, unknown>) => Record<string, unknown>
      /** What is merged in, shown to the person. */
      snippet: Record<string, unknown>
    }
  | { kind: 'toml'; path: string; table: string; block: string }

export interface ClientSetup {
  title: string
  /** The one command to run, when the client has its own (e.g. `claude mcp add`). */
  command: string | null
  edits: ConfigEdit[]
  notes: string[]
}

export const CONNECT_CLIENTS = ['claude-code', 'codex', 'gemini', 'cursor'] as const
export type ConnectClient = (typeof CONNECT_CLIENTS)[number]

/** The MCP server entry every client config holds: the launcher and `mcp`. */
const mcpEntry = (launcher: Launcher) => ({ command: launcher.command, args: [...launcher.args, 'mcp'] })
/** Matches every Shellgate tool, so the client does not prompt a second time for what Shellgate asks. */
export const CLAUDE_TOOL_RULE = 'mcp__shellgate__*'

/** What `shellgate mcp` reads from its environment; Codex forwards only the names listed. */
export const CODEX_PASSED_ENV = ['SHELLGATE_HOME', 'SHELLGATE_NO_OPEN', 'SHELLGATE_MCP_DEADLINE_MS']

type Env = Readonly<Record<string, string | undefined>>

/** The files and snippets that wire Shellgate into a client; paths follow each client's own env overrides. */
export function clientSetup(
  client: ConnectClient,
  env: Env,
  home: string,
  /** How the client starts Shellgate (launcherFor); the plain `shellgate` when not given. */
  launcher: Launcher = PLAIN_LAUNCHER,
): ClientSetup {
  const MCP_ENTRY = mcpEntry(launcher)
  const hookCommand = (name: string) => launcherText(launcher, ['hook', name])
  const mcpWords = launcherText(launcher, ['mcp'])
  if (client === 'claude-code') {
    const configDir = env.CLAUDE_CONFIG_DIR || join(home, '.claude')
    // Claude Code keeps user-scope MCP servers in .claude.json: in CLAUDE_CONFIG_DIR when set, else in the home.
    const claudeJson = env.CLAUDE_CONFIG_DIR
      ? join(env.CLAUDE_CONFIG_DIR, '.claude.json')
      : join(home, '.claude.json')
    const hook = {
      matcher: claudeCodeHook.matcher,
      hooks: [{ type: 'command', command: hookCommand('claude-code'), timeout: 600 }],
    }
    return {
      title: 'Claude Code',
      command: `claude mcp add --scope user shellgate -- ${mcpWords}`,
      edits: [
        {
          kind: 'json',
          path: claudeJson,
          snippet: { mcpServers: { shellgate: { type: 'stdio', ...MCP_ENTRY } } },
          merge: (current) => ({
            ...current,
            mcpServers: { ...asRecord(current.mcpServers), shellgate: { type: 'stdio', ...MCP_ENTRY } },
          }),
        },
        {
          kind: 'json',
          path: join(configDir, 'settings.json'),
          snippet: { permissions: { allow: [CLAUDE_TOOL_RULE] }, hooks: { PreToolUse: [hook] } },
          merge: (current) => {
            const permissions = asRecord(current.permissions)
            const hooks = asRecord(current.hooks)
            return {
              ...current,
              permissions: { ...permissions, allow: addOnce(permissions.allow, CLAUDE_TOOL_RULE) },
              hooks: { ...hooks, PreToolUse: addHookOnce(hooks.PreToolUse, hook) },
            }
          },
        },
      ],
      notes: [
        `The permission rule ${CLAUDE_TOOL_RULE} lets Claude call Shellgate's tools without its own prompt: Shellgate asks instead.`,
        "The PreToolUse hook sends Claude's own Bash tool through Shellgate too (allow, deny, or ask when Shellgate is not running).",
      ],
    }
  }
  if (client === 'codex') {
    const codexHome = env.CODEX_HOME || join(home, '.codex')
    const hook = {
      matcher: codexHook.matcher,
      hooks: [{ type: 'command', command: hookCommand('codex'), timeout: 600 }],
    }
    return {
      title: 'Codex',
      // `codex mcp add` cannot forward a variable, only set one: a SHELLGATE_HOME of your own is set.
      command: `codex mcp add ${env.SHELLGATE_HOME ? `--env ${posixQuote(`SHELLGATE_HOME=${env.SHELLGATE_HOME}`)} ` : ''}shellgate -- ${mcpWords}`,
      edits: [
        {
          kind: 'toml',
          path: join(codexHome, 'config.toml'),
          table: '[mcp_servers.shellgate]',
          block: [
            '[mcp_servers.shellgate]',
            `command = ${JSON.stringify(MCP_ENTRY.command)}`,
            `args = [${MCP_ENTRY.args.map((arg) => JSON.stringify(arg)).join(', ')}]`,
            '# Codex gives an MCP server only HOME, PATH and a few more; without SHELLGATE_HOME it would use another hub.',
            `env_vars = [${CODEX_PASSED_ENV.map((name) => `"${name}"`).join(', ')}]`,
            '# Shellgate answers every call within 45 s, inside this.',
            'tool_timeout_sec = 60',
          ].join('\n'),
        },
        {
          kind: 'json',
          path: join(codexHome, 'hooks.json'),
          snippet: { hooks: { PreToolUse: [hook] } },
          merge: (current) => {
            const hooks = asRecord(current.hooks)
            return { ...current, hooks: { ...hooks, PreToolUse: addHookOnce(hooks.PreToolUse, hook) } }
          },
        },
      ],
      notes: [
        `Codex runs a new or changed hook only after you trust it: open /hooks in Codex and trust "${hookCommand('codex')}".`,
        'Codex runs a command when a hook answers allow or ask, so Shellgate answers deny whenever nobody approves.',
      ],
    }
  }
  if (client === 'gemini') {
    const geminiHome = env.GEMINI_CLI_HOME || home
    const hook = {
      matcher: geminiHook.matcher,
      hooks: [{ name: 'shellgate', type: 'command', command: hookCommand('gemini'), timeout: 600_000 }],
    }
    return {
      title: 'Gemini CLI',
      command: `gemini mcp add --scope user --trust shellgate ${mcpWords}`,
      edits: [
        {
          kind: 'json',
          path: join(geminiHome, '.gemini', 'settings.json'),
          snippet: {
            mcpServers: { shellgate: { ...MCP_ENTRY, trust: true } },
            hooks: { BeforeTool: [hook] },
          },
          merge: (current) => {
            const hooks = asRecord(current.hooks)
            return {
              ...current,
              mcpServers: { ...asRecord(current.mcpServers), shellgate: { ...MCP_ENTRY, trust: true } },
              hooks: { ...hooks, BeforeTool: addHookOnce(hooks.BeforeTool, hook) },
            }
          },
        },
      ],
      notes: [
        '"trust": true lets Gemini call Shellgate\'s tools without its own confirmation: Shellgate asks instead.',
        "The BeforeTool hook sends Gemini's own run_shell_command through Shellgate; in non-interactive mode it is denied when nobody approves.",
        'Gemini starts no MCP server, not even a user-level one, in a folder you have not trusted: accept its trust prompt there.',
      ],
    }
  }
  return {
    title: 'Cursor',
    command: null,
    edits: [
      {
        kind: 'json',
        path: join(home, '.cursor', 'mcp.json'),
        snippet: { mcpServers: { shellgate: MCP_ENTRY } },
        merge: (current) => ({
          ...current,
          mcpServers: { ...asRecord(current.mcpServers), shellgate: MCP_ENTRY },
        }),
      },
    ],
    notes: [
      'In Cursor, allow the shellgate tools in Settings → MCP so Cursor does not ask before Shellgate does.',
    ],
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {}
}

function addOnce(list: unknown, item: string): unknown[] {
  const items = Array.isArray(list) ? list : []
  return items.includes(item) ? items : [...items, item]
}

/**
 * Adds a hook group unless one already runs the same command with the same matcher; a group that runs another
 * Shellgate hook for the same client (an earlier `shellgate hook codex` where this install is now
 * written by its absolute path) is replaced, so the client never asks Shellgate twice.
 */
function addHookOnce(list: unknown, group: { matcher: string; hooks: { command: string }[] }): unknown[] {
  const groups = Array.isArray(list) ? list : []
  const command = group.hooks[0]?.command ?? ''
  const commands = (existing: unknown) =>
    ((asRecord(existing).hooks as unknown[] | undefined) ?? []).map((hook) =>
      String(asRecord(hook).command ?? ''),
    )
  // Ours as written already (an earlier matcher, e.g. only `Bash`, is replaced by today's).
  if (
    groups.some(
      (existing) => commands(existing).includes(command) && asRecord(existing).matcher === group.matcher,
    )
  )
    return groups
  const client = command.split(' ').at(-1) ?? ''
  const ours = (text: string) => isShellgateHookCommand(text, client)
  return [...groups.filter((existing) => !commands(existing).some(ours)), group]
}

/** `… shellgate hook <client>` or `… bin/shellgate.js hook <client>` (any launcher of ours). */
export function isShellgateHookCommand(command: string, client: string): boolean {
  return new RegExp(`(?:^|[/s'])(?:shellgate|shellgate.js|cli.js|cli.ts)'? hook ${client}(?:s|$)`).test(
    command,
  )
}

/** One word for a POSIX shell, whatever it holds. */
function posixQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`
}
