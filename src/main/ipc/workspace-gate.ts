import type { ShellgateContract } from '../../shared/ipc/contract'
import type { Core } from '../core/app'
import type { Dispatcher } from './dispatcher'
import type { EventHub } from './event-hub'
import type { HubControl } from './handlers/hub-handlers'
import { createIpcHost } from './host'

export interface WorkspaceGate {
  /** Every method, from the first moment: agents never wait on the person's folder choice. */
  dispatcher: Dispatcher
  hub: EventHub<ShellgateContract>
  /** The core (it exists before the person chose a folder). */
  core(): Core | null
  /** As IpcHost's: set once this process serves the hub endpoint. */
  setHubControl(control: HubControl | null): void
  dispose(): Promise<void>
}

/**
 * Started without --workspace, Shellgate asks the person which folder to work in instead of
 * silently using the folder it was started from. Until they choose, the person has no session of
 * their own (`workspaces.choose` makes it), while agents, which name their own workspace, are
 * served at once and listed on the folder screen (`workspaces.recent`).
 */
export async function createWorkspaceGate(options: {
  home: string
  makeCore: (workspace: string | null, hub: EventHub<ShellgateContract>) => Promise<Core>
}): Promise<WorkspaceGate> {
  const host = await createIpcHost((hub) => options.makeCore(null, hub))
  return {
    dispatcher: host.dispatcher,
    hub: host.hub,
    core: () => host.core,
    setHubControl: host.setHubControl,
    dispose: () => host.core.dispose(),
  }
}
