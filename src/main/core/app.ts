import type { EventName, EventPayload } from '../../shared/ipc/define'
import type { About } from '../../shared/ipc/domains/app'
import type { ShellgateContract } from '../../shared/ipc/contract'
import { resolveShellgateHome } from './paths'
import { APP_VERSION } from './version'

export type EmitEvent = <E extends EventName<ShellgateContract>>(
  name: E,
  payload: EventPayload<ShellgateContract, E>,
) => void

export interface CoreOptions {
  workspace: string
  /** The sanitised runtime environment (never the raw process.env). */
  env: NodeJS.ProcessEnv
  runtime: 'electron' | 'browser'
  electronVersion: string | null
  platform?: NodeJS.Platform
  /** Where events for the UIs go; the IPC host passes its hub. */
  emit: EmitEvent
}

export interface Core {
  readonly workspace: string
  readonly dataDir: string
  about(transport: About['transport']): About
  /** Stops everything the core started; safe to call twice. */
  dispose(): Promise<void>
}

/** The composition root: every service is created here and nowhere else. */
export function createCore(options: CoreOptions): Core {
  const platform = options.platform ?? process.platform
  const dataDir = resolveShellgateHome(options.env)
  let disposed = false

  return {
    workspace: options.workspace,
    dataDir,
    about(transport) {
      return {
        appVersion: APP_VERSION,
        platform,
        arch: process.arch,
        nodeVersion: process.versions.node,
        electronVersion: options.electronVersion,
        runtime: options.runtime,
        dataDir,
        workspace: options.workspace,
        transport,
      }
    },
    async dispose() {
      if (disposed) return
      disposed = true
    },
  }
}
