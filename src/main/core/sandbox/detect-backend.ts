import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createExecutionPort } from '../exec/execution-port'
import type { ExecutionPort } from '../exec/types'
import { DEFAULT_BWRAP_PATH } from './bwrap.linux'
import { WINDOWS_NO_SANDBOX } from './none.win32'
import { SANDBOX_EXEC_PATH } from './seatbelt.darwin'
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

/** A probe is a tiny process; a loaded machine is given plenty of time before "broken" is said. */
const PROBE_TIMEOUT_MS = 10_000

/**
 * Runs `true` in each profile with the real backend, so "available" means "a command ran inside",
 * not "a binary exists". The caller caches the answer for the life of the core.
 */
export async function detectBackend(
  options: { platform: NodeJS.Platform; bwrapPath?: string; port?: ExecutionPort } = {
    platform: process.platform,
  },
): Promise<BackendStatus> {
  const { platform } = options
  if (platform === 'win32') {
    const no: ProfileProbe = { ok: false, error: WINDOWS_NO_SANDBOX }
    const profiles = { 'read-only': no, 'workspace-write': no }
    return { platform, backend: 'none', path: null, available: false, profiles, message: WINDOWS_NO_SANDBOX }
  }
  const backend: SandboxBackend = platform === 'darwin' ? 'seatbelt' : 'bubblewrap'
  const path = platform === 'darwin' ? SANDBOX_EXEC_PATH : (options.bwrapPath ?? DEFAULT_BWRAP_PATH)
  const port = options.port ?? createExecutionPort({ platform })
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'shellgate-sandbox-probe-')))
  try {
    const probe = (profile: EnforcedProfile) => probeProfile(port, platform, profile, scratch, path)
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

async function probeProfile(
  port: ExecutionPort,
  platform: NodeJS.Platform,
  profile: EnforcedProfile,
  scratch: string,
  path: string,
): Promise<ProfileProbe> {
  const sandbox: ExecutionSandbox = {
    profile,
    workspace: scratch,
    writableRoots: [],
    protectedPaths: [],
    hidden: [],
    exposed: [],
    network: 'off',
    ...(platform === 'darwin' ? { privateTmp: scratch } : { bwrapPath: path }),
  }
  const result = await port.execute({
    command: { mode: 'argv', file: '/bin/sh', args: ['-c', 'true'] },
    cwd: scratch,
    env: { PATH: '/usr/bin:/bin' },
    timeoutMs: PROBE_TIMEOUT_MS,
    output: { mode: 'pipe', inlineLimitBytes: 4_096 },
    sandbox,
  })
  if (result.status === 'completed') return { ok: true, error: null }
  if (result.spawnError?.code === 'ENOENT') {
    const install = platform === 'darwin' ? '' : ' (install the bubblewrap package)'
    return { ok: false, error: `${path} is missing${install}` }
  }
  if (result.spawnError) return { ok: false, error: `${path} cannot start: ${result.spawnError.message}` }
  const said = result.stderr.trim().split('\n').at(-1) ?? ''
  return {
    ok: false,
    error: `${path} failed in the ${profile} profile (${result.errorMessage ?? `exit ${result.exitCode}`})${said ? `: ${said}` : ''}`,
  }
}
