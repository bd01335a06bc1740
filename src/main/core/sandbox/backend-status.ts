import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_BWRAP_PATH } from './bwrap.linux'
import { WINDOWS_NO_SANDBOX } from './none.win32'
import { SANDBOX_EXEC_PATH } from './seatbelt.darwin'
import { systemLayout } from './system-folders'
import type { EnforcedProfile, ExecutionSandbox } from './types'

export type SandboxBackend = 'bubblewrap' | 'seatbelt' | 'none'

export interface ProfileProbe {
  ok: boolean
  /** Why `true` did not run in this profile; null when it did. */
  error: string | null
}

/** The answer shown in Settings and by `shellgate sandbox status`. */
export interface BackendStatus {
  platform: NodeJS.Platform
  backend: SandboxBackend
  /** The wrapper binary (bwrap, sandbox-exec); null on Windows. */
  path: string | null
  /** Both profiles ran `true`. */
  available: boolean
  profiles: Record<EnforcedProfile, ProfileProbe>
  /** One plain sentence: what works, or what is missing and what to do. */
  message: string
}

/** What became of `/bin/sh -c true` run in one profile, as the caller's executor saw it. */
export type ProbeOutcome =
  | { kind: 'ran' }
  /** The wrapper binary does not exist (ENOENT at spawn). */
  | { kind: 'missing' }
  | { kind: 'cannot_start'; message: string }
  /** It started and did not complete: `detail` is the executor's reason, `said` the last stderr line. */
  | { kind: 'failed'; detail: string; said: string }

/**
 * Runs one probe through the executor. The sandbox room plans and never spawns (it sits below the
 * executor), so whoever owns an execution port supplies this (workbench/sandbox-probe.ts).
 */
export type ProbeRunner = (probe: { sandbox: ExecutionSandbox; cwd: string }) => Promise<ProbeOutcome>

/**
 * Runs `true` in each profile with the real backend, so "available" means "a command ran inside",
 * not "a binary exists". The caller caches the answer for the life of the core.
 */
export async function detectBackend(options: {
  platform: NodeJS.Platform
  bwrapPath?: string
  run: ProbeRunner
}): Promise<BackendStatus> {
  const { platform } = options
  if (platform === 'win32') {
    const no: ProfileProbe = { ok: false, error: WINDOWS_NO_SANDBOX }
    const profiles = { 'read-only': no, 'workspace-write': no }
    return { platform, backend: 'none', path: null, available: false, profiles, message: WINDOWS_NO_SANDBOX }
  }
  const backend: SandboxBackend = platform === 'darwin' ? 'seatbelt' : 'bubblewrap'
  const path = platform === 'darwin' ? SANDBOX_EXEC_PATH : (options.bwrapPath ?? DEFAULT_BWRAP_PATH)
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'shellgate-sandbox-probe-')))
  try {
    const probe = async (profile: EnforcedProfile): Promise<ProfileProbe> => {
      const sandbox = probeSandbox(profile, scratch, platform, path)
      return describeProbe(await options.run({ sandbox, cwd: scratch }), { platform, profile, path })
    }
    const profiles = {
      'read-only': await probe('read-only'),
      'workspace-write': await probe('workspace-write'),
    }
    const available = profiles['read-only'].ok && profiles['workspace-write'].ok
    const failure = profiles['read-only'].error ?? profiles['workspace-write'].error
    const message = available
      ? `${backend} works (${path}): read-only and workspace-write profiles ran a command`
      : `${backend} does not work here: ${failure}`
    return { platform, backend, path, available, profiles, message }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

/** The smallest sandbox that still exercises the backend: the system folders and a scratch workspace. */
function probeSandbox(
  profile: EnforcedProfile,
  scratch: string,
  platform: NodeJS.Platform,
  path: string,
): ExecutionSandbox {
  const system = systemLayout(platform)
  return {
    profile,
    readable: system.readable.map(({ path, kind }) => ({ path, kind })),
    symlinks: system.symlinks,
    emptyDirs: [],
    workspace: scratch,
    writableRoots: [],
    privateCaches: [],
    protectedPaths: [],
    reopenedPaths: [],
    hidden: [],
    exposed: [],
    allowedSockets: [],
    network: 'off',
    ...(platform === 'darwin' ? { privateTmp: scratch } : { bwrapPath: path }),
  }
}

function describeProbe(
  outcome: ProbeOutcome,
  context: { platform: NodeJS.Platform; profile: EnforcedProfile; path: string },
): ProfileProbe {
  const { path } = context
  switch (outcome.kind) {
    case 'ran':
      return { ok: true, error: null }
    case 'missing': {
      const install = context.platform === 'darwin' ? '' : ' (install the bubblewrap package)'
      return { ok: false, error: `${path} is missing${install}` }
    }
    case 'cannot_start':
      return { ok: false, error: `${path} cannot start: ${outcome.message}` }
    case 'failed':
      return {
        ok: false,
        error: `${path} failed in the ${context.profile} profile (${outcome.detail})${outcome.said ? `: ${outcome.said}` : ''}`,
      }
  }
}
