import { contract, type ShellgateContract } from '../../shared/ipc/contract'
import { RpcError } from '../../shared/ipc/errors'
import type { Core } from '../core/app'
import {
  readRecentWorkspaces,
  rememberWorkspace,
  resolveChosenWorkspace,
} from '../core/settings/recent-workspaces'
import { createDispatcher, type Dispatcher, type Handlers } from './dispatcher'
import { mapDomainError } from './domain-errors'
import { createEventHub, type EventHub } from './event-hub'
import { createHandlers } from './handlers'
import { type HubControl, hubHandlers } from './handlers/hub-handlers'
import { createSessionOwnership } from './session-ownership'

export interface WorkspaceGate {
  /** Answers workspaces.recent and workspaces.choose until a folder is chosen, then everything. */
  dispatcher: Dispatcher
  hub: EventHub<ShellgateContract>
  /** The core once a workspace was chosen (or given), else null. */
  core(): Core | null
  /** As IpcHost's: set once this process serves the hub endpoint. */
  setHubControl(control: HubControl | null): void
  dispose(): Promise<void>
}

/**
 * Started without --workspace, Shellgate asks the person which folder to work in instead of
 * silently using the folder it was started from: until they choose, every method but the two
 * workspace ones is refused, and no session, rule or command exists.
 */
export function createWorkspaceGate(options: {
  home: string
  makeCore: (workspace: string, hub: EventHub<ShellgateContract>) => Promise<Core>
}): WorkspaceGate {
  const ownership = createSessionOwnership()
  const hub = createEventHub(contract, { agentView: ownership.agentView })
  let control: HubControl | null = null
  let core: Core | null = null
  let opening: Promise<Core> | null = null
  let current: Dispatcher

  const waiting = Object.fromEntries(
    Object.keys(contract.requests).map((method) => [
      method,
      () => {
        throw new RpcError('denied', `${method}: choose the folder to work in first`)
      },
    ]),
  ) as unknown as Handlers<ShellgateContract>
  const gateHandlers: Handlers<ShellgateContract> = {
    ...waiting,
    // A second serve or `shellgate ui` still finds this hub while the person is choosing.
    ...hubHandlers(() => control),
    'workspaces.recent': async () => ({
      current: null,
      recent: await readRecentWorkspaces(options.home),
      agents: [],
    }),
    'workspaces.choose': async ({ workspace }) => {
      const chosen = await resolveChosenWorkspace(workspace)
      // Two windows choosing at once get the one core the first choice opened.
      opening ??= options.makeCore(chosen, hub).then(async (made) => {
        core = made
        await rememberWorkspace(options.home, chosen)
        current = createDispatcher(contract, createHandlers(made, { ownership, hubControl: () => control }), {
          mapError: mapDomainError,
        })
        return made
      })
      opening.catch(() => {
        opening = null
      })
      const opened = await opening
      return { workspace: opened.workspace }
    },
  }
  current = createDispatcher(contract, gateHandlers, { mapError: mapDomainError })
  return {
    dispatcher: { dispatch: (raw, context) => current.dispatch(raw, context) },
    hub,
    core: () => core,
    setHubControl(next) {
      control = next
    },
    async dispose() {
      const made = core ?? (await opening?.catch(() => null)) ?? null
      await made?.dispose()
    },
  }
}
