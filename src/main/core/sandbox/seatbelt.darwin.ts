import { egressOf } from './network-profile'
import { proxyEnvironment } from './proxy-env'
import type { ExecutionSandbox, WrappablePlan } from './types'

export const SANDBOX_EXEC_PATH = '/usr/bin/sandbox-exec'

/**
 * The Seatbelt (SBPL) profile for one command. In SBPL the last matching rule wins, so the text
 * reads in the same order as the bwrap mounts: deny everything, allow reads, allow the writable
 * roots, take back the protected paths, hide the secrets, hand back the executor's own files.
 */
export function seatbeltProfile(sandbox: ExecutionSandbox, privateTmp: string): string {
  const writes = sandbox.profile === 'workspace-write'
  const egress = egressOf(sandbox)
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read mach-lookup ipc-posix-shm)',
    '(allow file-read*)',
    `(allow file-write* (literal "/dev/null") (subpath ${quote(privateTmp)}))`,
  ]
  if (writes) {
    const roots = [sandbox.workspace, ...sandbox.writableRoots].map((root) => `(subpath ${quote(root)})`)
    lines.push(`(allow file-write* ${roots.join(' ')})`)
    for (const path of sandbox.protectedPaths) lines.push(`(deny file-write* (subpath ${quote(path)}))`)
  }
  for (const hidden of sandbox.hidden) {
    const filter = hidden.kind === 'dir' ? 'subpath' : 'literal'
    lines.push(`(deny file-read* file-write* (${filter} ${quote(hidden.path)}))`)
  }
  for (const exposed of sandbox.exposed) {
    lines.push(`(allow file-read* (literal ${quote(exposed.path)}))`)
    if (exposed.writable) lines.push(`(allow file-write* (literal ${quote(exposed.path)}))`)
  }
  // No network namespace on macOS: the host proxy listens on a loopback port, and only that port
  // and the workspace's allowed ones may be dialled; the policy itself is the proxy's (as on Linux).
  if (egress) {
    for (const port of [egress.proxyPort, ...egress.allowedPorts]) {
      lines.push(`(allow network-outbound (remote ip "localhost:${port}"))`)
    }
  }
  return `${lines.join('\n')}\n`
}

export function seatbeltPlan(
  sandbox: ExecutionSandbox,
  inner: WrappablePlan,
  privateTmp: string,
): WrappablePlan {
  const env = ['/usr/bin/env', `TMPDIR=${privateTmp}`]
  const egress = egressOf(sandbox)
  if (egress) env.push(...proxyEnvironment(egress.proxyPort).map(([name, value]) => `${name}=${value}`))
  return {
    file: SANDBOX_EXEC_PATH,
    args: ['-p', seatbeltProfile(sandbox, privateTmp), '--', ...env, inner.file, ...inner.args],
    windowsVerbatimArguments: false,
  }
}

/** SBPL strings are double-quoted with backslash escapes. */
function quote(path: string): string {
  return `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}
