import { egressOf, PROXY_SOCKET_NAME, portSocketName } from './network-profile'
import { proxyEnvironment } from './proxy-env'
import type { ExecutionSandbox } from './types'

export const DEFAULT_SOCAT_PATH = '/usr/bin/socat'
/** Where the run's socket folder appears inside: in the private /tmp, so nothing on the host changes. */
export const NETWORK_DIR_INSIDE = '/tmp/.shellgate-net'
/** The bridge exits with this when socat never started listening; 125 is "the wrapper failed", as in env(1)/nohup. */
export const BRIDGE_FAILED_EXIT_CODE = 125
/**
 * socat tells the bridge it listens through this FIFO in the private /tmp (its own notices,
 * `-d -d`), so the bridge blocks on a read instead of polling: on a loaded machine a polling loop
 * took CPU from the very socat it waited for.
 */
const BRIDGE_FIFO_INSIDE = '/tmp/.shellgate-bridge'
const MKFIFO_PATH = '/usr/bin/mkfifo'

/** The network parts of one bwrap command line, each placed by bwrapPlan where its order needs it. */
export interface BwrapNetworkArgs {
  /** After the private /tmp: the run's socket folder, read-only (a socket is still connectable). */
  mounts: string[]
  /**
   * Always a namespace other than the host's: a new one (--unshare-net), or none here when the
   * command joins the spare made for it (`join`), whose loopback, abstract sockets and interfaces
   * are equally not the host's.
   */
  namespace: string[]
  /** The spare namespace to join before bwrap starts (nsenter --net), or null. */
  join: string | null
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
  const egress = egressOf(sandbox)
  if (!egress) return { mounts: [], namespace: ['--unshare-net'], env: [], join: null, bridge: [] }
  const env = proxyEnvironment(egress.proxyPort).flatMap(([name, value]) => ['--setenv', name, value])
  const join = egress.namespacePath ?? null
  // A spare already listens for the proxy; only the allowed ports (rare) are bridged inside.
  const listeners = [
    ...(join ? [] : [{ port: egress.proxyPort, socket: PROXY_SOCKET_NAME }]),
    ...egress.allowedPorts.map((port) => ({ port, socket: portSocketName(port) })),
  ]
  return {
    mounts: ['--ro-bind', egress.socketDir, NETWORK_DIR_INSIDE],
    namespace: join ? [] : ['--unshare-net'],
    env,
    join,
    bridge: listeners.length > 0 ? bridgeCommand(listeners, socatPath) : [],
  }
}

/**
 * socat listens on 127.0.0.1:PORT for the proxy and each allowed port, and forwards every
 * connection to the matching socket. The command starts once each socat has written its
 * "listening on" notice to the FIFO; an error line, or every socat gone (end of file), fails the
 * bridge instead. A forked reader then drains socat's later notices (one per connection, so a
 * full FIFO never stalls it), passing its error lines on to the command's stderr as before.
 */
function bridgeCommand(listeners: { port: number; socket: string }[], socatPath: string): string[] {
  const fail = (why: string) =>
    `echo "shellgate: the sandbox network bridge ${why}" >&2; exit ${BRIDGE_FAILED_EXIT_CODE}`
  const script = [
    `${MKFIFO_PATH} -m 600 ${BRIDGE_FIFO_INSIDE} || { ${fail('could not make its FIFO')}; }`,
    ...listeners.map(
      ({ port, socket }) =>
        `${socatPath} -d -d TCP-LISTEN:${port},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${NETWORK_DIR_INSIDE}/${socket} 2>${BRIDGE_FIFO_INSIDE} &`,
    ),
    `exec 4<${BRIDGE_FIFO_INSIDE}`,
    'n=0',
    `while [ "$n" -lt ${listeners.length} ]; do`,
    `  IFS= read -r line <&4 || { ${fail('did not start')}; }`,
    '  case "$line" in',
    "    *' N listening on '*) n=$((n+1));;",
    `    *' E '*) ${fail('could not listen: $line')};;`,
    '  esac',
    'done',
    `(while IFS= read -r line; do case "$line" in *' E '*) printf '%s\n' "$line" >&2;; esac; done) <&4 &`,
    'exec 4<&-',
    'exec "$@"',
  ].join('\n')
  return ['/bin/sh', '-c', script, 'shellgate-bridge']
}
