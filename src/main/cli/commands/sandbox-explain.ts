import { homedir } from 'node:os'
import type { LayoutEntry } from '../../core/sandbox/layout-types'
import type { SandboxLayout } from '../../core/sandbox/sandbox-layout'
import type { SandboxService } from '../../core/sandbox/sandbox-service'
import type { EnforcedProfile } from '../../core/sandbox/types'
import type { UserSettings } from '../../../shared/settings'
import type { CliIo } from '../command'
import { UsageError } from '../usage-error'

const PROFILES: readonly EnforcedProfile[] = ['read-only', 'workspace-write']

/** `shellgate sandbox explain`: what each profile mounts for a folder, and the rule behind each line. */
export function explainSandbox(
  io: CliIo,
  service: SandboxService,
  user: UserSettings,
  options: { profile: unknown; cwd: string; json: boolean },
): number {
  const profiles = options.profile === undefined ? PROFILES : [profileFlag(options.profile)]
  const layouts = profiles.map((profile) =>
    service.explain({
      settings: user.sandbox,
      profile,
      workspace: options.cwd,
      cwd: options.cwd,
      searchPath: io.env.PATH ?? '',
      readableFolders: user.readPlaces.readableFolders,
    }),
  )
  if (options.json) {
    io.stdout(`${JSON.stringify({ profiles: layouts.map(({ git: _git, ...layout }) => layout) })}\n`)
    return 0
  }
  const home = io.env.HOME ?? homedir()
  for (const layout of layouts) io.stdout(render(layout, home))
  return 0
}

function profileFlag(value: unknown): EnforcedProfile {
  if (PROFILES.includes(value as EnforcedProfile)) return value as EnforcedProfile
  throw new UsageError(
    `shellgate sandbox explain: --profile ${JSON.stringify(value)} is not a profile (use read-only or workspace-write)`,
  )
}

function render(layout: SandboxLayout, home: string): string {
  const who =
    layout.profile === 'read-only' ? 'commands that run without asking' : 'approved and rule-allowed commands'
  const writes = layout.profile === 'workspace-write'
  const sections: [string, LayoutEntry[]][] = [
    ['Readable', [...layout.readable, ...(writes ? [] : [layout.workspace])]],
    ['Empty stand-ins', layout.emptyDirs],
    ['Writable', writes ? [layout.workspace, ...layout.writable] : []],
    ['Writable, kept for this workspace alone', layout.privateCaches],
    ['Read-only inside what is writable', layout.protected],
    ['Writable again inside those', layout.reopened],
    ['Writable, put back after the run unless only core.worktree changed', layout.restoredAfter],
    ['Not there yet, moved aside after the run if the command makes them', layout.watchedAfter],
    ['Hidden', layout.hidden],
    ['Allowed sockets', layout.allowedSockets],
    ['Considered and left out', layout.leftOut],
  ]
  const lines = [
    `Profile ${layout.profile} (${who}) for ${layout.workspace.path}`,
    'Reads are denied by default: nothing of the host is there unless listed here.',
    `Always: a private empty /tmp, a fresh /dev and /proc${layout.symlinks.length > 0 ? `, and the system's links (${layout.symlinks.map((link) => `${link.path} -> ${link.target}`).join(', ')})` : ''}.`,
  ]
  for (const [title, entries] of sections) {
    if (entries.length === 0) continue
    lines.push('', `${title}:`)
    for (const entry of entries) {
      const shown = shorten(entry.path, home)
      const source = entry.source ? ` (from ${shorten(entry.source, home)})` : ''
      lines.push(`  ${`${shown}${source}`.padEnd(44)} ${entry.why}`)
    }
  }
  return `${lines.join('\n')}\n\n`
}

function shorten(path: string, home: string): string {
  return path === home ? '~' : path.startsWith(`${home}/`) ? `~/${path.slice(home.length + 1)}` : path
}
