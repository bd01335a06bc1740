import { relative } from 'node:path'
import type { EgressDecision } from './egress-policy'
import { networkBlockedLine } from './network-blocked-line'
import type { ExecutionSandbox } from './types'

export interface BlockedLineInput {
  sandbox: ExecutionSandbox
  /** The tail of what the command printed (stdout and stderr together). */
  output: string
  exitCode: number | null
  /** What the network proxy and the port forwarders refused during this run. */
  refused: EgressDecision[]
  home: string
}

const READ_ONLY_FS = /(?:['‘`"]?)(\/[^\s'’`":]*)(?:['’`"]?)?[^\n]*?:\s*Read-only file system/
/** A read-only verdict never shows a card, so the way on is a rule that makes the person decide. */
const READ_ONLY_FURTHER =
  'To go further, the person can add an ask rule for it (Settings → Permissions) and approve it, in its sandbox or unsandboxed.'

/**
 * One plain line for a command that failed because of the sandbox, saying what was blocked and how
 * to go further; null when the failure does not look like the sandbox's doing. Read from the
 * output text and the profile, since a process reports EROFS or ENETUNREACH only as text.
 */
export function sandboxBlockedLine(input: BlockedLineInput): string | null {
  if (input.exitCode === 0) return null
  const { sandbox, output } = input
  if (input.refused.length > 0) return networkBlockedLine({ sandbox, output, refused: input.refused })
  const written = READ_ONLY_FS.exec(output)
  if (written) return writeLine(sandbox, written[1]!, input.home)
  const network = networkBlockedLine({ sandbox, output, refused: [] })
  if (network) return network
  const hidden = sandbox.hidden.find(
    (entry) => output.includes(entry.path) || output.includes(tilde(entry.path, input.home)),
  )
  if (hidden && /No such file or directory|Permission denied|Read-only file system/.test(output)) {
    return `blocked by the sandbox: ${tilde(hidden.path, input.home)} is hidden from sandboxed commands. To go further, approve the command unsandboxed.`
  }
  return null
}

function writeLine(sandbox: ExecutionSandbox, path: string, home: string): string {
  const shown = tilde(path, home)
  const further = 'To go further, approve the command unsandboxed.'
  if (sandbox.hidden.some((entry) => inside(path, entry.path))) {
    return `blocked by the sandbox: ${shown} is hidden from sandboxed commands. ${further}`
  }
  if (sandbox.profile === 'read-only') {
    return `blocked by the sandbox: this command ran without asking, in the read-only profile, so it cannot write (${shown}). ${READ_ONLY_FURTHER}`
  }
  if (sandbox.protectedPaths.some((entry) => inside(path, entry))) {
    return `blocked by the sandbox: ${shown} stays read-only even inside the workspace. ${further}`
  }
  return `blocked by the sandbox: write outside the workspace (${shown}). ${further}`
}

function inside(path: string, root: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith('/'))
}

function tilde(path: string, home: string): string {
  return inside(path, home) && path !== home ? `~/${relative(home, path)}` : path
}
