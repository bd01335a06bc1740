import type { ExecutionPort } from '../exec/types'
import { type BackendStatus, detectBackend, type ProbeRunner } from '../sandbox/backend-status'

/** A probe is a tiny process; a loaded machine is given plenty of time before "broken" is said. */
const PROBE_TIMEOUT_MS = 10_000

/**
 * The sandbox room plans; this runs its probe (`/bin/sh -c true` in a profile) through the real
 * executor, so the probe takes exactly the path every sandboxed command takes.
 */
export function sandboxProbeRunner(port: ExecutionPort): ProbeRunner {
  return async ({ sandbox, cwd }) => {
    const result = await port.execute({
      command: { mode: 'argv', file: '/bin/sh', args: ['-c', 'true'] },
      cwd,
      env: { PATH: '/usr/bin:/bin' },
      timeoutMs: PROBE_TIMEOUT_MS,
      output: { mode: 'pipe', inlineLimitBytes: 4_096 },
      sandbox,
    })
    if (result.status === 'completed') return { kind: 'ran' }
    if (result.spawnError?.code === 'ENOENT') return { kind: 'missing' }
    if (result.spawnError) return { kind: 'cannot_start', message: result.spawnError.message }
    return {
      kind: 'failed',
      detail: result.errorMessage ?? `exit ${result.exitCode}`,
      said: result.stderr.trim().split('\n').at(-1) ?? '',
    }
  }
}

/** detectBackend with the real executor: what the core, `shellgate exec` and `sandbox status` use. */
export function detectSandboxBackend(
  port: ExecutionPort,
  options: { platform: NodeJS.Platform; bwrapPath?: string },
): Promise<BackendStatus> {
  return detectBackend({ ...options, run: sandboxProbeRunner(port) })
}
