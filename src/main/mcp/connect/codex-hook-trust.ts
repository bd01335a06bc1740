import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { SetupCheck } from '../../../shared/ipc/domains/agents'
import { readRegularFile } from './apply-edit'
import { tomlString, tomlTable } from './read-client-config'
import { findOnPath } from './shellgate-launcher'

type Env = Readonly<Record<string, string | undefined>>

/** `codex app-server` answers hooks/list in about a second; ten means it hangs (a broken install). */
const CODEX_HOOKS_LIST_TIMEOUT_MS = 10_000

/** What `hooks/list` says of one hook (Codex 0.171's app-server protocol). */
interface ListedHook {
  key: string
  eventName: string
  handlerType: string
  command: string | null
  enabled: boolean
  trustStatus: 'managed' | 'untrusted' | 'trusted' | 'modified' | string
}

/**
 * Issue 22.1: whether Codex will run Shellgate's hook, read from Codex itself. Codex records a
 * trust as `[hooks.state."<hooks.json>:pre_tool_use:<group>:<handler>"] trusted_hash = "sha256:…"`
 * in CODEX_HOME/config.toml (what /hooks → Trust writes) and runs a hook only while that hash is
 * the hook's current one. Only Codex knows how it hashes a hook, so its app-server is asked
 * (`hooks/list` starts no MCP server and no model); without a `codex` command the recorded trust
 * is read from config.toml, which can say "never trusted" but not "still matches".
 */
export async function codexHookTrust(options: {
  env: Env
  home: string
  /** The hook command connect wrote (`shellgate hook codex`, or this install's absolute form). */
  hook: string
}): Promise<SetupCheck> {
  const codexHome = options.env.CODEX_HOME || join(options.home, '.codex')
  const codex = findOnPath('codex', options.env.PATH ?? '')
  if (codex) {
    const listed = await listCodexHooks(codex, options.env, options.home).catch((error: Error) => error)
    if (!(listed instanceof Error)) return trustFromCodex(listed, options.hook)
    const recorded = await recordedTrust(codexHome, options.hook)
    return { ...recorded, detail: `${recorded.detail} (codex app-server did not answer: ${listed.message})` }
  }
  return recordedTrust(codexHome, options.hook)
}

function trustFromCodex(hooks: ListedHook[], command: string): SetupCheck {
  const ours = hooks.find(
    (hook) => hook.eventName === 'preToolUse' && hook.handlerType === 'command' && hook.command === command,
  )
  const trustIt = `open /hooks in Codex and trust "${command}"`
  if (!ours)
    return {
      ok: false,
      detail: `Codex does not list the hook "${command}"; run shellgate connect codex --write`,
    }
  if (!ours.enabled)
    return { ok: false, detail: `the hook is turned off in Codex; ${trustIt.replace('trust', 'turn on')}` }
  if (ours.trustStatus === 'trusted') return { ok: true, detail: 'Codex trusts the hook (/hooks)' }
  if (ours.trustStatus === 'managed') return { ok: true, detail: 'the hook is managed by your organisation' }
  if (ours.trustStatus === 'modified')
    return {
      ok: false,
      detail: `the hook changed since you trusted it, so Codex does not run it: ${trustIt}`,
    }
  return { ok: false, detail: `Codex does not run the hook until you trust it: ${trustIt}` }
}

/** Starts `codex app-server`, asks hooks/list for the user's hooks, and ends it. */
function listCodexHooks(codex: string, env: Env, home: string): Promise<ListedHook[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(codex, ['app-server'], { cwd: home, env: env as NodeJS.ProcessEnv, stdio: 'pipe' })
    let stderr = ''
    let settled = false
    const finish = (error: Error | null, hooks: ListedHook[] = []) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      child.stdin.end()
      child.kill('SIGTERM')
      if (error) reject(error)
      else resolve(hooks)
    }
    const timer = setTimeout(
      () => finish(new Error(`no answer within ${CODEX_HOOKS_LIST_TIMEOUT_MS / 1000} s`)),
      CODEX_HOOKS_LIST_TIMEOUT_MS,
    )
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`)
    child.on('error', (error) => finish(new Error(`it did not start: ${error.message}`)))
    child.stdin.on('error', () => undefined)
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4096)
    })
    child.on('exit', (code, signal) =>
      finish(new Error(`it exited (${signal ?? `code ${code}`}): ${stderr.trim().split('\n').at(-1) ?? ''}`)),
    )
    createInterface({ input: child.stdout }).on('line', (line) => {
      let message: {
        id?: number
        result?: { data?: Array<{ hooks?: ListedHook[] }> }
        error?: { message?: string }
      }
      try {
        message = JSON.parse(line)
      } catch {
        return
      }
      if (message.error) return finish(new Error(message.error.message ?? 'an error'))
      if (message.id === 1) {
        send({ method: 'initialized' })
        send({ id: 2, method: 'hooks/list', params: { cwds: [home] } })
      } else if (message.id === 2)
        finish(
          null,
          (message.result?.data ?? []).flatMap((each) => each.hooks ?? []),
        )
    })
    send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'shellgate-doctor', version: '1' } } })
  })
}

/** The trust config.toml records for our hook's key; the hash itself only Codex can check. */
async function recordedTrust(codexHome: string, command: string): Promise<SetupCheck> {
  const hooksFile = join(codexHome, 'hooks.json')
  const key = await hookKey(hooksFile, command)
  if (!key) return { ok: false, detail: 'no hook to trust yet' }
  const config = await readText(join(codexHome, 'config.toml'))
  const table = config === null ? null : tomlTable(config, `[hooks.state.${JSON.stringify(key)}]`)
  return table && tomlString(table, 'trusted_hash')
    ? {
        ok: null,
        detail: `config.toml records a trust for it; whether it still matches only Codex can say (codex is not on PATH)`,
      }
    : { ok: false, detail: `never trusted in Codex: open /hooks in Codex and trust "${command}"` }
}

/** Codex's key for a hooks.json handler: `<file>:pre_tool_use:<group index>:<handler index>`. */
async function hookKey(hooksFile: string, command: string): Promise<string | null> {
  const text = await readText(hooksFile)
  if (text === null) return null
  let groups: unknown
  try {
    groups = (JSON.parse(text) as { hooks?: { PreToolUse?: unknown } }).hooks?.PreToolUse
  } catch {
    return null
  }
  if (!Array.isArray(groups)) return null
  for (const [group, entry] of groups.entries()) {
    const handlers = (entry as { hooks?: unknown })?.hooks
    if (!Array.isArray(handlers)) continue
    const handler = handlers.findIndex((each) => (each as { command?: unknown })?.command === command)
    if (handler >= 0) return `${hooksFile}:pre_tool_use:${group}:${handler}`
  }
  return null
}

/** A missing, refused (a symlink) or unreadable file is no record. */
async function readText(path: string): Promise<string | null> {
  const read = await readRegularFile(path).catch(() => null)
  return typeof read === 'string' ? read : null
}
