import { lstat } from 'node:fs/promises'
import { readRegularFile } from './apply-edit'
import { CLAUDE_TOOL_RULE, type ConnectClient, clientSetup, isShellgateHookCommand } from './client-configs'

/** One of a client's config files as it stands: Shellgate's entry there or not, and what it runs. */
export interface FoundFile {
  path: string
  role: 'mcp' | 'hook' | 'permission'
  state: 'configured' | 'missing' | 'unreadable'
  /** The command the entry starts, as shell text; null when none. */
  command: string | null
  /** Why it is missing or unreadable, in words. */
  detail: string
}

/** What a client's files say about Shellgate: each file's state and the MCP server entry's argv. */
export interface FoundConfig {
  files: FoundFile[]
  /** The MCP server entry's command and args (`shellgate`, [`mcp`]), when one is configured. */
  server: { command: string; args: string[] } | null
  /** The hook's command string, when one is configured. */
  hook: string | null
}

type Env = Readonly<Record<string, string | undefined>>
type Read = { text: string } | { missing: true } | { unreadable: string }

/** Reads the files `connect` writes for `client` (the same paths, the same env overrides) and finds Shellgate's entries. */
export async function readClientConfig(client: ConnectClient, env: Env, home: string): Promise<FoundConfig> {
  const edits = clientSetup(client, env, home).edits
  const files: FoundFile[] = []
  let server: FoundConfig['server'] = null
  let hook: string | null = null
  for (const edit of edits) {
    const read = await readConfig(edit.path)
    if (edit.kind === 'toml') {
      const table = 'text' in read ? tomlTable(read.text, edit.table) : null
      const command = table ? tomlString(table, 'command') : null
      const args = table ? tomlStringArray(table, 'args') : null
      if (command !== null) server = { command, args: args ?? [] }
      files.push(found(edit.path, 'mcp', read, server ? argvText(server) : null, `no ${edit.table} table`))
      continue
    }
    const json = 'text' in read ? parseObject(read.text) : null
    const shown: Read = 'text' in read && json === null ? { unreadable: 'it is not a JSON object' } : read
    const entry = record(record(json?.mcpServers).shellgate)
    if (edit.snippet.mcpServers !== undefined) {
      if (typeof entry.command === 'string') {
        const args = Array.isArray(entry.args) ? entry.args.map(String) : []
        server = { command: entry.command, args }
      }
      const line = typeof entry.command === 'string' ? argvText(server!) : null
      files.push(found(edit.path, 'mcp', shown, line, 'no mcpServers.shellgate entry'))
    }
    const hooks = record(edit.snippet.hooks)
    for (const event of Object.keys(hooks)) {
      const command = hookCommandIn(record(json?.hooks)[event], client)
      if (command !== null) hook = command
      files.push(
        found(edit.path, 'hook', shown, command, `no ${event} hook runs \`shellgate hook ${client}\``),
      )
    }
    if (edit.snippet.permissions !== undefined) {
      const allow = record(json?.permissions).allow
      const has = Array.isArray(allow) && allow.includes(CLAUDE_TOOL_RULE)
      files.push(
        found(edit.path, 'permission', shown, null, `permissions.allow lacks ${CLAUDE_TOOL_RULE}`, has),
      )
    }
  }
  return { files, server, hook }
}

function found(
  path: string,
  role: FoundFile['role'],
  read: Read,
  command: string | null,
  absent: string,
  present = command !== null,
): FoundFile {
  if ('unreadable' in read) return { path, role, state: 'unreadable', command: null, detail: read.unreadable }
  if ('missing' in read)
    return { path, role, state: 'missing', command: null, detail: 'the file does not exist' }
  return present
    ? { path, role, state: 'configured', command, detail: 'Shellgate is configured here' }
    : { path, role, state: 'missing', command: null, detail: absent }
}

async function readConfig(path: string): Promise<Read> {
  const info = await lstat(path).catch(() => null)
  if (!info) return { missing: true }
  if (!info.isFile()) return { unreadable: 'it is not a regular file (a symlink or a folder)' }
  try {
    const text = await readRegularFile(path)
    return typeof text === 'string' ? { text } : { unreadable: text.refused }
  } catch (error) {
    return { unreadable: (error as Error).message }
  }
}

function parseObject(text: string): Record<string, unknown> | null {
  if (text.trim() === '') return {}
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {}
}

function hookCommandIn(groups: unknown, client: string): string | null {
  for (const group of Array.isArray(groups) ? groups : []) {
    const hooks = record(group).hooks
    for (const hook of Array.isArray(hooks) ? hooks : []) {
      const command = record(hook).command
      if (typeof command === 'string' && isShellgateHookCommand(command, client)) return command
    }
  }
  return null
}

/** The lines of one TOML table, header excluded; null when the header is not there. */
export function tomlTable(text: string, header: string): string[] | null {
  const lines = text.split('\n')
  const start = lines.findIndex((line) => line.trim() === header)
  if (start < 0) return null
  const rest = lines.slice(start + 1)
  const end = rest.findIndex((line) => /^\s*\[/.test(line))
  return end < 0 ? rest : rest.slice(0, end)
}

/** `key = "value"` (a basic string, JSON escapes), the form `connect` and `codex mcp add` write. */
export function tomlString(lines: string[], key: string): string | null {
  const line = lines.find((each) => new RegExp(`^\\s*${key}\\s*=`).test(each))
  const value = line?.replace(/^[^=]*=\s*/, '').trim()
  if (!value?.startsWith('"')) return null
  try {
    return JSON.parse(value) as string
  } catch {
    return null
  }
}

function tomlStringArray(lines: string[], key: string): string[] | null {
  const line = lines.find((each) => new RegExp(`^\\s*${key}\\s*=`).test(each))
  const value = line?.replace(/^[^=]*=\s*/, '').trim()
  try {
    const parsed: unknown = JSON.parse(value ?? '')
    return Array.isArray(parsed) ? parsed.map(String) : null
  } catch {
    return null
  }
}

function argvText(argv: { command: string; args: string[] }): string {
  return [argv.command, ...argv.args].join(' ')
}
