import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import type { BackendStatus } from '../../../../src/main/core/sandbox/backend-status'
import { sandboxOf } from '../../../../src/main/core/sandbox/layout-sandbox'
import {
  type LayoutInput,
  planLayout,
  type SandboxLayout,
} from '../../../../src/main/core/sandbox/sandbox-layout'
import { ensureHiddenFiles } from '../../../../src/main/core/sandbox/sandbox-paths'
import {
  createSandboxService,
  type SandboxPrepareInput,
  type SandboxService,
} from '../../../../src/main/core/sandbox/sandbox-service'
import type { EnforcedProfile, ExecutionSandbox } from '../../../../src/main/core/sandbox/types'
import { type SandboxSettings, SandboxSettingsSchema } from '../../../../src/shared/settings'

/**
 * A home, a SHELLGATE_HOME and a git workspace under /var/tmp, NOT /tmp: every sandbox mounts a
 * private empty /tmp, which would hide a fixture there on its own and make "hidden" tests pass
 * for the wrong reason. Every sandbox here is the product's own (planLayout, the same code path
 * the Bash tool takes through the sandbox service), never a hand-written list of mounts.
 */
export interface SandboxWorld {
  root: string
  home: string
  dataDir: string
  workspace: string
  outside: string
  /** The product's layout for this world (what `shellgate sandbox explain` prints). */
  layout(profile?: EnforcedProfile, options?: WorldOptions): SandboxLayout
  /** The product's sandbox for this world, with overrides for what a test varies (the network). */
  base(overrides?: Partial<ExecutionSandbox>, options?: WorldOptions): ExecutionSandbox
  /** A sandbox service for this world, backend taken as working (the real-bwrap tests run it). */
  service(): SandboxService
  prepareInput(profile: EnforcedProfile, options?: WorldOptions): SandboxPrepareInput
}

export interface WorldOptions {
  settings?: Partial<SandboxSettings>
  cwd?: string
  searchPath?: string
  readableFolders?: string[]
}

export const FIXTURE_ROOT = '/var/tmp'
export const TEST_PATH = '/usr/bin:/bin'
export const WORKING_BACKEND: BackendStatus = {
  platform: 'linux',
  backend: 'bubblewrap',
  path: '/usr/bin/bwrap',
  available: true,
  profiles: { 'read-only': { ok: true, error: null }, 'workspace-write': { ok: true, error: null } },
  message: 'bubblewrap works',
}

export function sandboxWorlds(): () => SandboxWorld {
  const made: string[] = []
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  return () => {
    const root = realpathSync(mkdtempSync(join(FIXTURE_ROOT, 'shellgate-sandbox-')))
    made.push(root)
    const home = join(root, 'home')
    const dataDir = join(home, '.shellgate')
    const workspace = join(root, 'ws')
    const outside = join(root, 'outside')
    mkdirSync(join(home, '.ssh'), { recursive: true })
    writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n')
    writeFileSync(join(home, '.netrc'), 'machine example.com password hunter2\n')
    mkdirSync(join(dataDir, 'exec'), { recursive: true })
    writeFileSync(join(dataDir, 'settings.json'), '{}\n')
    mkdirSync(join(workspace, '.git', 'hooks'), { recursive: true })
    mkdirSync(join(workspace, '.git', 'objects'), { recursive: true })
    writeFileSync(join(workspace, '.git', 'HEAD'), 'ref: refs/heads/main\n')
    writeFileSync(join(workspace, '.git', 'config'), '[core]\n')
    mkdirSync(join(workspace, '.shellgate'), { recursive: true })
    mkdirSync(outside, { recursive: true })
    const hiddenFiles = ensureHiddenFiles(join(root, 'hidden-files'))
    const layoutInput = (profile: EnforcedProfile, options: WorldOptions = {}): LayoutInput => ({
      platform: 'linux',
      profile,
      home,
      dataDir,
      workspace,
      cwd: options.cwd ?? workspace,
      searchPath: options.searchPath ?? TEST_PATH,
      settings: SandboxSettingsSchema.parse(options.settings ?? {}),
      readableFolders: options.readableFolders ?? [],
      create: true,
    })
    const world: SandboxWorld = {
      root,
      home,
      dataDir,
      workspace,
      outside,
      layout: (profile = 'workspace-write', options) => planLayout(layoutInput(profile, options)),
      base: (overrides = {}, options) => {
        const profile = overrides.profile ?? 'workspace-write'
        const sandbox = sandboxOf(world.layout(profile, options), {
          emptyFile: hiddenFiles.unreadable,
          blankFile: hiddenFiles.blank,
          exposed: [],
          network: 'off',
        })
        return { ...sandbox, ...overrides }
      },
      service: () =>
        createSandboxService({ platform: 'linux', home, dataDir, detect: async () => WORKING_BACKEND }),
      prepareInput: (profile, options = {}) => ({
        settings: SandboxSettingsSchema.parse(options.settings ?? {}),
        workspace,
        cwd: options.cwd ?? workspace,
        searchPath: options.searchPath ?? TEST_PATH,
        readableFolders: options.readableFolders ?? [],
        ranWithoutAsking: profile === 'read-only',
        unsandboxedByPerson: false,
        readableFiles: [],
        writableFiles: [],
      }),
    }
    return world
  }
}

const port = createExecutionPort()

/** Runs a script in this sandbox from the workspace, HOME the world's home. */
export function runInSandbox(w: SandboxWorld, sandbox: ExecutionSandbox, script: string, path = TEST_PATH) {
  return port.execute({
    command: { mode: 'shell', command: script, shellProfile: 'posix-bash' },
    cwd: sandbox.workspace,
    env: { PATH: path, HOME: w.home },
    timeoutMs: 20_000,
    sandbox,
  })
}
