import { homedir } from 'node:os'
import { join } from 'node:path'
import type { AgentClientStatus, SetupCheck } from '../../../shared/ipc/domains/agents'
import { resolveShellgateHome } from '../../core/paths'
import { AUDIT_FILE_NAME } from '../../core/settings/audit-log'
import { AUDIT_READ_MAX_LIMIT, readAuditLog } from '../../core/settings/audit-reader'
import { connectToHub } from '../../hub/hub-client'
import { HubError } from '../../hub/hub-error'
import { lastSeenBy, setupStatus } from '../../mcp/connect/setup-status'
import { parseCommandArgs } from '../args'
import type { CliCommand } from '../command'
import { UsageError } from '../usage-error'

export const doctorCommand: CliCommand = {
  usage: [
    'Usage: shellgate doctor [--json]',
    '',
    '  Per client (Claude Code, Codex, Gemini CLI, Cursor): which config files hold Shellgate, whether',
    '  the command they name starts from any folder, whether `<command> mcp` answers (only while a',
    '  Shellgate runs: the check never starts one), the hook, and when this Shellgate last saw it.',
    '  Exits 0 when every configured client is healthy, 1 when one is configured but broken.',
    '  --json  print {clients: [...]}, the same data as Settings → Agents',
  ].join('\n'),
  async run(argv, io) {
    const { flags, positionals, rest } = parseCommandArgs('doctor', argv, { json: { type: 'boolean' } })
    if (positionals.length > 0 || rest !== null) throw new UsageError('shellgate doctor: takes no arguments')
    const home = resolveShellgateHome(io.env)
    const hub = await connectToHub({ home }).catch((error: unknown) => {
      if (error instanceof HubError) return null
      throw error
    })
    await hub?.close().catch(() => undefined)
    const audit = await readAuditLog(join(home, AUDIT_FILE_NAME), { limit: AUDIT_READ_MAX_LIMIT }).catch(
      () => null,
    )
    const seen = (audit?.entries ?? []).flatMap((entry) =>
      entry.agent ? [{ agent: entry.agent, at: entry.time }] : [],
    )
    const clients = await setupStatus({
      env: io.env,
      home: io.env.HOME || homedir(),
      hubRunning: hub !== null,
      lastSeen: lastSeenBy(seen),
    })
    if (flags.json) io.stdout(`${JSON.stringify({ clients })}\n`)
    else io.stdout(clients.map(describe).join('\n'))
    const broken = clients.some(
      (client) => client.files.some((file) => file.state !== 'missing') && client.fix,
    )
    return broken ? 1 : 0
  },
}

function describe(status: AgentClientStatus): string {
  const lines = [`${status.title} (${status.client}): ${status.configured ? 'configured' : 'not configured'}`]
  for (const file of status.files)
    lines.push(`  ${file.role.padEnd(10)} ${file.state.padEnd(10)} ${file.path}`)
  const check = (label: string, value: SetupCheck | null) => {
    if (value) lines.push(`  ${label.padEnd(10)} ${mark(value.ok)} ${value.detail}`)
  }
  check('command', status.command)
  check('mcp', status.mcp)
  check('hook', status.hook)
  check('trusted', status.trusted)
  lines.push(`  last seen  ${status.lastSeenAt ?? 'never'}`)
  if (status.fix) lines.push(`  fix:       ${status.fix}`)
  return `${lines.join('\n')}\n`
}

const mark = (ok: boolean | null) => (ok === true ? 'ok  ' : ok === false ? 'FAIL' : '?   ')
