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

export interface WorkspaceGate {
  /** Answers workspaces.recent and workspaces.choose until a folder is chosen, then everything. */
  dispatcher: Dispatcher
  hub: EventHub<ShellgateContract>
  /** The core once a workspace was chosen (or given), else null. */
  core(): Core | null
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
  const hub = createEventHub(contract)
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
    'workspaces.recent': async () => ({ current: null, recent: await readRecentWorkspaces(options.home) }),
    'workspaces.choose': async ({ workspace }) => {
      const chosen = await resolveChosenWorkspace(workspace)
      // Two windows choosing at once get the one core the first choice opened.
      opening ??= options.makeCore(chosen, hub).then(async (made) => {
        core = made
        await rememberWorkspace(options.home, chosen)
        current = createDispatcher(contract, createHandlers(made), { mapError: mapDomainError })
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
    async dispose() {
      const made = core ?? (await opening?.catch(() => null)) ?? null
      await made?.dispose()
    },
  }
}
