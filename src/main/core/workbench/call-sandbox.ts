import type { BashCall } from '../../../shared/ipc/domains/bash'
import type { SandboxSettings } from '../../../shared/settings'
import type { ApprovalRequest } from '../permissions/approval-broker-types'
import { chooseProfile } from '../sandbox/choose-profile'
import type { SandboxNetworkInput } from '../sandbox/prepare-network'
import type { SandboxService } from '../sandbox/sandbox-service'
import type { ExecutionSandbox, SandboxProfile } from '../sandbox/types'
import { readOutputTail } from '../tasks/output-file-range'

/** Enough of the output's end to find the error line a blocked write or connect prints. */
const EXPLAIN_TAIL_BYTES = 16 * 1024

export type CallSandbox =
  | {
      kind: 'run'
      profile: SandboxProfile
      sandbox?: ExecutionSandbox
      /** Adds the "blocked by the sandbox" line and any sandbox notes to what the model sees. */
      annotate(call: BashCall): Promise<BashCall>
      release(): Promise<void>
    }
  | { kind: 'refuse'; content: string; release(): Promise<void> }

export interface CallSandboxInput {
  settings: SandboxSettings
  workspace: string
  /** The request's cwd and PATH: what the sandbox mounts besides the workspace and the system. */
  cwd: string
  searchPath: string
  readableFolders: readonly string[]
  ranWithoutAsking: boolean
  unsandboxedByPerson: boolean
  snapshotPath: string | null
  cwdFile: string | null
  /** The command's network rules, ports and asker (issue 19.3), fetched only when it has a network. */
  network?: () => Promise<SandboxNetworkInput>
}

/** The Bash path's half of issue 12: the verdict and the settings become a profile on the request. */
export async function prepareCallSandbox(
  service: SandboxService,
  input: CallSandboxInput,
): Promise<CallSandbox> {
  const prepared = await service.prepare({
    settings: input.settings,
    workspace: input.workspace,
    cwd: input.cwd,
    searchPath: input.searchPath,
    readableFolders: input.readableFolders,
    ranWithoutAsking: input.ranWithoutAsking,
    unsandboxedByPerson: input.unsandboxedByPerson,
    readableFiles: [input.snapshotPath],
    writableFiles: [input.cwdFile],
    ...(input.network ? { network: input.network } : {}),
  })
  if (prepared.kind === 'refuse') {
    return { kind: 'refuse', content: `Not run: ${prepared.reason}`, release: async () => {} }
  }
  return {
    kind: 'run',
    profile: prepared.profile,
    sandbox: prepared.sandbox,
    release: prepared.release,
    async annotate(call) {
      const lines = prepared.notes.map((note) => `Sandbox: ${note}`)
      // The git audit runs once the command is over: a moved-aside repository is said here.
      lines.push(...prepared.settle().map((note) => `Sandbox: ${note}`))
      const { outputPath: path, outputIdentity: identity } = call
      const output =
        path && identity ? (await readOutputTail({ path, identity }, EXPLAIN_TAIL_BYTES)).text : ''
      const blocked = prepared.explain({ exitCode: call.exitCode, output })
      if (blocked) lines.push(blocked)
      if (lines.length === 0) return call
      return { ...call, content: [call.content, ...lines].filter((part) => part !== '').join('\n') }
    },
  }
}

/** What the approval card shows before the person answers: the profile an approved command gets. */
export async function approvalSandbox(
  service: SandboxService,
  settings: SandboxSettings,
): Promise<NonNullable<ApprovalRequest['sandbox']>> {
  const backend = await service.backend()
  const choice = chooseProfile({
    mode: settings.mode,
    ranWithoutAsking: false,
    unsandboxedByPerson: false,
    backendAvailable: backend.available,
    backendMessage: backend.message,
  })
  const unsandboxedAllowed = settings.mode === 'auto'
  if (choice.kind === 'refuse') return { profile: 'off', note: choice.reason, unsandboxedAllowed }
  const sockets =
    choice.profile === 'workspace-write' ? socketWarning(service.allowedSockets(settings)) : null
  const note = [choice.warning, sockets].filter((part) => part !== null).join('; ') || null
  return { profile: choice.profile, note, unsandboxedAllowed }
}

/** An allowed host socket (the Docker socket) is the sandbox's widest door: the card says so every time. */
function socketWarning(sockets: readonly string[]): string | null {
  if (sockets.length === 0) return null
  return `this command can reach ${sockets.join(', ')} (Settings → Sandbox → allowed sockets): whoever talks to a socket acts with its owner's power`
}
