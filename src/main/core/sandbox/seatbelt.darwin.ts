import { byDepth } from './mount-order'
import { egressOf } from './network-profile'
import { proxyEnvironment } from './proxy-env'
import type { ExecutionSandbox, MountedPath, WrappablePlan } from './types'

export const SANDBOX_EXEC_PATH = '/usr/bin/sandbox-exec'

/** The devices every program opens; the rest of /dev (disks, among them) stays denied. */
const DEVICES_READ_WRITE = ['/dev/null', '/dev/zero', '/dev/tty', '/dev/dtracehelper']
const DEVICES_READ = ['/dev/random', '/dev/urandom']

/**
 * The Seatbelt (SBPL) profile for one command, the same deny-by-default policy as the bwrap mount
 * table (issue 19). In SBPL the last matching rule wins, so the text reads in the order of the
 * bwrap mounts: deny everything; allow reading the readable list and the workspace; allow the
 * writable roots; take back the protected paths and hand back the reopened ones, shallowest first;
 * hide the secrets; hand back the executor's own files; the allowed sockets; the network.
 *
 * Metadata (stat) is allowed everywhere: every path lookup stats its parent folders, and a denied
 * stat breaks programs that never read those folders. It tells a file exists, never what it holds.
 * macOS has no tmpfs to stand in for the home folder: it is simply unreadable, apart from the
 * allowed config files. `symlinks` are not needed: Seatbelt checks the path a link resolves to.
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
    '(allow file-read-metadata)',
    `(allow file-read* file-write* ${DEVICES_READ_WRITE.map(literal).join(' ')} (subpath "/dev/fd"))`,
    `(allow file-read* ${DEVICES_READ.map(literal).join(' ')})`,
    `(allow file-read* file-write* (subpath ${quote(privateTmp)}))`,
  ]
  for (const entry of byDepth(sandbox.readable, (entry) => entry.path))
    lines.push(`(allow file-read* ${filter(entry)})`)
  lines.push(`(allow file-read* (subpath ${quote(sandbox.workspace)}))`)
  if (writes) {
    const roots = [sandbox.workspace, ...sandbox.writableRoots].map((root) => `(subpath ${quote(root)})`)
    lines.push(`(allow file-write* ${roots.join(' ')})`)
    const layers = [
      ...sandbox.protectedPaths.map((path) => ({ path, writable: false })),
      ...sandbox.reopenedPaths.map((path) => ({ path, writable: true })),
    ]
    for (const layer of byDepth(layers, (layer) => layer.path)) {
      lines.push(`(${layer.writable ? 'allow' : 'deny'} file-write* (subpath ${quote(layer.path)}))`)
    }
  }
  for (const hidden of sandbox.hidden) {
    const kind = hidden.kind === 'dir' ? 'subpath' : 'literal'
    lines.push(`(deny file-read* file-write* (${kind} ${quote(hidden.path)}))`)
  }
  for (const exposed of sandbox.exposed) {
    lines.push(`(allow file-read* ${literal(exposed.path)})`)
    if (exposed.writable) lines.push(`(allow file-write* ${literal(exposed.path)})`)
  }
  const sockets = writes ? sandbox.allowedSockets : []
  // Creating any socket needs system-socket; what it may then reach is each rule below.
  if (egress || sockets.length > 0) lines.push('(allow system-socket)')
  for (const socket of sockets) {
    lines.push(`(allow network-outbound (remote unix-socket (path-literal ${quote(socket)})))`)
  }
  // No network namespace on macOS: the host proxy listens on a loopback port, and only that port
  // and the workspace's allowed ones may be dialled (IP only: never `network*`, which would open
  // every host Unix socket); the policy itself is the proxy's, as on Linux.
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

/** Seatbelt checks the path a link resolves to, so a linked entry is allowed where its contents are too. */
function filter(entry: MountedPath): string {
  const paths = entry.source && entry.source !== entry.path ? [entry.path, entry.source] : [entry.path]
  return paths.map((path) => (entry.kind === 'dir' ? `(subpath ${quote(path)})` : literal(path))).join(' ')
}

function literal(path: string): string {
  return `(literal ${quote(path)})`
}

/** SBPL strings are double-quoted with backslash escapes. */
function quote(path: string): string {
  return `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}
