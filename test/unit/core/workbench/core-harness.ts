import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Core, type CoreOptions, createCore } from '../../../../src/main/core/app'
import { sanitizeEntryEnv } from '../../../../src/main/core/env/sanitize-entry'

export interface CoreHarness {
  core: Core
  workspace: string
  home: string
  events: { name: string; payload: unknown }[]
  sessionId: string
  /** A second core on the same folders, as after a restart. */
  restart(): Promise<Core>
  dispose(): Promise<void>
}

/** A real core on temp folders; the login-shell capture is off so the machine's rc files do not matter. */
export async function startCore(
  options: Pick<CoreOptions, 'sandbox'> & {
    /** Entry environment on top of the harness's PATH, HOME, SHELL and SHELLGATE_HOME. */
    env?: Record<string, string>
  } = {},
): Promise<CoreHarness> {
  const { env: extraEnv = {}, ...extra } = options
  const workspace = await mkdtemp(join(tmpdir(), 'shellgate-ws-'))
  const home = await mkdtemp(join(tmpdir(), 'shellgate-home-'))
  const events: { name: string; payload: unknown }[] = []
  const cores: Core[] = []
  const make = async () => {
    const core = await createCore({
      workspace,
      env: sanitizeEntryEnv(
        {
          ...extraEnv,
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: home,
          SHELL: '/bin/bash',
          SHELLGATE_HOME: home,
        },
        'linux',
      ),
      runtime: 'browser',
      electronVersion: null,
      captureLoginShell: false,
      emit: (name, payload) => events.push({ name, payload }),
      ...extra,
    })
    cores.push(core)
    return core
  }
  const core = await make()
  const sessionId = core.sessions.list()[0]?.id
  if (!sessionId) throw new Error('the core opened no session')
  return {
    core,
    workspace,
    home,
    events,
    sessionId,
    restart: make,
    async dispose() {
      for (const each of cores) await each.dispose()
      await rm(workspace, { recursive: true, force: true })
      // A task's end record may still be landing in sessions/ as the core closes: retry, as rm -rf would.
      await rm(home, { recursive: true, force: true, maxRetries: 5 })
    },
  }
}

export async function waitFor<T>(
  read: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
