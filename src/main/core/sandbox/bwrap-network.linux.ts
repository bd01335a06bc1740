import { egressOf, PROXY_SOCKET_NAME, portSocketName } from './network-profile'
import { proxyEnvironment } from './proxy-env'
import type { ExecutionSandbox, SandboxEgress } from './types'

export const DEFAULT_SOCAT_PATH = '/usr/bin/socat'
/** Where the run's socket folder appears inside: in the private /tmp, so nothing on the host changes. */
export const NETWORK_DIR_INSIDE = '/tmp/.shellgate-net'
/** The bridge exits with this when socat never started listening; 125 is "the wrapper failed", as in env(1)/nohup. */
export const BRIDGE_FAILED_EXIT_CODE = 125
/**
 * The wait spins on shell builtins (no fork) for this many looks, about 20 µs each, which covers
 * socat's start on an idle machine; then it naps 1 ms a look (a fork each) up to BRIDGE_WAIT_ROUNDS,
 * about 5 s or more on a loaded machine, before the bridge gives up.
 */
const BRIDGE_SPIN_ROUNDS = 2_000
const BRIDGE_WAIT_ROUNDS = 7_000

/** The network parts of one bwrap command line, each placed by bwrapPlan where its order needs it. */
export interface BwrapNetworkArgs {
  /** After the private /tmp: the run's socket folder, read-only (a socket is still connectable). */
  mounts: string[]
  /** Always a new network namespace: the host's loopback, abstract sockets and interfaces are not in it. */
  namespace: string[]
  env: string[]
  /** Runs first inside: the bridges, then `exec "$@"` (the command). Empty when there is no network. */
  bridge: string[]
}

/**
 * Every profile gets its own network namespace (issue 19.3), whose only interface is its own
 * loopback. A command with a network gets socat listeners on 127.0.0.1 inside: the proxy's port
 * and each allowed workspace port, each bridged to its Unix socket in the bound folder. A command
 * without one (read-only, network off) gets no bridge at all, so it pays nothing for it.
 */
export function bwrapNetworkArgs(
  sandbox: ExecutionSandbox,
  socatPath = DEFAULT_SOCAT_PATH,
): BwrapNetworkArgs {
  const namespace = ['--unshare-net']
  const egress = egressOf(sandbox)
  if (!egress) return { mounts: [], namespace, env: [], bridge: [] }
  const env = proxyEnvironment(egress.proxyPort).flatMap(([name, value]) => ['--setenv', name, value])
  return {
    mounts: ['--ro-bind', egress.socketDir, NETWORK_DIR_INSIDE],
    namespace,
    env,
    bridge: bridgeCommand(egress, socatPath),
  }
}

/**
 * socat listens on 127.0.0.1:PORT for the proxy and each allowed port, and forwards every
 * connection to the matching socket. The command starts once all of them listen, read from
 * /proc/net/tcp (this namespace's sockets only) with shell builtins, so the wait forks nothing
 * while socat is quick; a socat that died ends the wait at once.
 */
function bridgeCommand(egress: SandboxEgress, socatPath: string): string[] {
  const listeners = [
    { port: egress.proxyPort, socket: PROXY_SOCKET_NAME },
    ...egress.allowedPorts.map((port) => ({ port, socket: portSocketName(port) })),
  ]
  const rows = listeners.map(
    ({ port }) => `"0100007F:${port.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 0A"`,
  )
  const fail = (why: string) =>
    `echo 'shellgate: the sandbox network bridge ${why}' >&2; exit ${BRIDGE_FAILED_EXIT_CODE}`
  const script = [
    ...listeners.map(
      ({ port, socket }) =>
        `${socatPath} TCP-LISTEN:${port},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${NETWORK_DIR_INSIDE}/${socket} & p${port}=$!`,
    ),
    'ready() {',
    '  n=0',
    `  while read -r _ l r s _; do case "$l $r $s" in ${rows.join('|')}) n=$((n+1));; esac; done </proc/net/tcp`,
    `  [ "$n" -ge ${listeners.length} ]`,
    '}',
    'i=0',
    'until ready; do',
    ...listeners.map(
      ({ port }) =>
        `  kill -0 "$p${port}" 2>/dev/null || { ${fail(`could not listen on 127.0.0.1:${port}`)}; }`,
    ),
    `  i=$((i+1)); [ "$i" -le ${BRIDGE_WAIT_ROUNDS} ] || { ${fail('did not start')}; }`,
    `  [ "$i" -le ${BRIDGE_SPIN_ROUNDS} ] || sleep 0.001`,
    'done',
    'exec "$@"',
  ].join('\n')
  return ['/bin/sh', '-c', script, 'shellgate-bridge']
}
