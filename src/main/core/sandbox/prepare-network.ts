import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { SandboxSettings } from '../../../shared/settings'
import type { HostResolver } from '../network/host-resolver'
import type { NetworkConfigInput } from '../network/network-config'
import { readWorkspaceNetwork } from '../settings/workspace-network-file'
import type { EgressDecision, NetworkAsker, NetworkRuleSet } from './egress-policy'
import { networkRuleSet } from './network-rule-set'
import { startNetworkRun } from './network-run'
import { type ParentProxyFor, parentProxies } from './parent-proxy'
import type { SpareNetwork, SparePool } from './spare-network.linux'
import type { EnforcedProfile, SandboxEgress, SandboxNetwork } from './types'

/** The hub's part of a command's network: its rules, its workspace's ports, and the person to ask. */
export interface SandboxNetworkInput {
  /** Read at every connection, so a rule saved on another card applies at once. */
  rules: () => NetworkRuleSet
  allowedPorts: number[]
  ask?: NetworkAsker
  /** Each distinct decision of the run (destination and outcome) once, for the audit log; release waits for it. */
  record?: (decision: EgressDecision) => Promise<unknown> | undefined
}

export interface PrepareNetworkInput {
  platform: NodeJS.Platform
  profile: EnforcedProfile
  settings: SandboxSettings
  workspace: string
  dataDir: string
  logDir: string
  socatPath: string
  resolver?: HostResolver
  admitLoopbackPorts?: number[]
  /**
   * Called only when the command has a network. Absent (a headless exec): the user's rules and
   * this machine's workspace file, and nobody to ask.
   */
  network?: () => Promise<SandboxNetworkInput>
  /** The person's network settings and environment, for their own proxy (see parent-proxy.ts). */
  parentProxy?: () => Promise<NetworkConfigInput>
  portRefusal(port: number): Promise<string | null>
  /** Linux as root: the spare namespaces (spare-network.linux.ts); absent, each command bridges itself. */
  spares?: SparePool
  /** Every decision and forwarded connection, for the proxy log. */
  log(decision: EgressDecision): void
}

export interface PreparedNetwork {
  network: SandboxNetwork
  egress?: SandboxEgress
  notes: string[]
  /** What was refused during the run, for the blocked line. */
  refused: EgressDecision[]
  release(): Promise<void>
}

/** A forwarded connection, logged as a decision of its own kind. */
export const FORWARD_METHOD = 'FORWARD'

/**
 * Starts what a command's network needs (nothing for read-only or off). A machine without socat
 * cannot bridge into the namespace: the command still runs, with no network, and a note says why.
 */
export async function prepareNetwork(input: PrepareNetworkInput): Promise<PreparedNetwork> {
  const refused: EgressDecision[] = []
  const network = input.profile === 'read-only' ? 'off' : input.settings.network
  const none = { egress: undefined, refused, release: async () => {} }
  if (network === 'off') return { ...none, network, notes: [] }
  if (input.platform === 'linux' && !existsSync(input.socatPath)) {
    const note = `this command has no network: ${input.socatPath} is missing, and it bridges the sandbox to Shellgate's proxy (install the socat package)`
    return { ...none, network: 'off', notes: [note] }
  }
  const notes: string[] = []
  const given = input.network ? await input.network() : await fromFiles(input, notes)
  const allowedPorts: number[] = []
  for (const port of given.allowedPorts) {
    const refusal = await input.portRefusal(port)
    if (refusal) notes.push(`port ${port} is not forwarded: ${refusal}`)
    else allowedPorts.push(port)
  }
  const parent = input.parentProxy ? await chainedParent(input.parentProxy, notes) : undefined
  const audited = new Set<string>()
  const recording: Promise<unknown>[] = []
  const decided = (decision: EgressDecision) => {
    input.log(decision)
    if (!decision.allowed) refused.push(decision)
    const key = [
      decision.method === FORWARD_METHOD,
      decision.host,
      decision.port,
      decision.allowed,
      decision.decidedBy,
    ].join(' ')
    if (audited.has(key)) return
    audited.add(key)
    const written = given.record?.(decision)
    if (written) recording.push(written.catch(() => undefined))
  }
  const spare = takeSpare(input.spares)
  const run = await startNetworkRun({
    platform: input.platform,
    baseDir: input.logDir,
    allowedPorts,
    ...(spare ? { spare } : {}),
    parent,
    policy: {
      network,
      rules: given.rules,
      resolver: input.resolver,
      admitLoopbackPorts: input.admitLoopbackPorts,
      ask: given.ask,
      onDecision: decided,
    },
    portRefusal: input.portRefusal,
    onPortConnection: ({ port, allowed, reason }) =>
      decided({
        at: new Date().toISOString(),
        method: FORWARD_METHOD,
        host: '127.0.0.1',
        port,
        allowed,
        reason,
        decidedBy: allowed ? 'rule' : 'network_policy',
        rule: allowed ? `port ${port}` : null,
        ruleFile: null,
        approvedBy: null,
      }),
  }).catch((error: unknown) => {
    spare?.discard()
    throw error
  })
  // The audit lines are on disk before the call's own answer: release comes first.
  const release = async () => {
    await run.release()
    // The tree that used the spare is gone: its namespace goes, and the next command's is made.
    spare?.discard()
    input.spares?.refill()
    await Promise.all(recording)
  }
  return { network, egress: run.egress, notes, refused, release }
}

/** A spare ready now, or none: a miss starts one for a later command, and this one bridges itself. */
function takeSpare(spares: SparePool | undefined): SpareNetwork | null {
  if (!spares) return null
  const spare = spares.take()
  if (!spare) spares.refill()
  return spare
}

/** The person's proxy per destination; a setting that cannot be used is a note, and the run goes direct. */
async function chainedParent(
  read: () => Promise<NetworkConfigInput>,
  notes: string[],
): Promise<ParentProxyFor | undefined> {
  try {
    const { parentFor, note } = parentProxies(await read())
    if (note) notes.push(note)
    return parentFor
  } catch (error) {
    notes.push(`the sandbox proxy connects direct, not through your proxy: ${(error as Error).message}`)
    return undefined
  }
}

async function fromFiles(input: PrepareNetworkInput, notes: string[]): Promise<SandboxNetworkInput> {
  const local = await readWorkspaceNetwork(input.dataDir, input.workspace)
  if (local.problem) notes.push(local.problem)
  const rules = networkRuleSet([
    { scope: 'local', source: local.file, ...local.value },
    { scope: 'user', source: join(input.dataDir, 'settings.json'), ...input.settings },
  ])
  return { rules: () => rules, allowedPorts: local.value.allowedPorts }
}
