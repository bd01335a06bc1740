import type { ExecutionSandbox, WrappablePlan } from './types'

export const DEFAULT_BWRAP_PATH = '/usr/bin/bwrap'
export const DEFAULT_SOCAT_PATH = '/usr/bin/socat'
/** Where the host proxy's Unix socket appears inside the sandbox: in the private /tmp, so nothing on the host changes. */
export const PROXY_SOCKET_INSIDE = '/tmp/.shellgate-proxy.sock'
/** The bridge exits with this when socat never started listening; 125 is "the wrapper failed", as in env(1)/nohup. */
export const BRIDGE_FAILED_EXIT_CODE = 125

/**
 * The bubblewrap command line for one command: a pure function of (policy, paths), so tests
 * compare it with tables and then run it.
 *
 * THE ORDER OF THE MOUNTS IS THE SECURITY PROPERTY. bwrap applies them left to right and a later
 * mount covers an earlier one, so:
 *   1. the whole host read-only, a fresh /dev and /proc;
 *   2. a private, empty /tmp (it hides the host's /tmp);
 *   3. the workspace (writable under workspace-write, read-only under read-only: it may live in
 *      the host's /tmp, which step 2 just hid), a cwd in the host's /tmp (read-only), and the
 *      writable tool caches;
 *   4. protected paths inside those writable roots, read-only again (.git/hooks, .git/config,
 *      <workspace>/.shellgate): after 3, or 3 would make them writable;
 *   5. secrets hidden (an empty tmpfs over a directory, an empty file over a file): after 3 and 4, so a
 *      secret inside a writable root stays hidden;
 *   6. the few executor files under a hidden directory (shell snapshot, cwd capture file): after 5,
 *      or 5 would hide them;
 *   7. the hiding tmpfs made read-only: last, because 6 creates its mount points inside them;
 *   8. the proxy socket (allowlist only), inside the private /tmp.
 * Then the namespaces: always a new PID namespace (nothing outlives the run), a new session
 * (unless the command has a private terminal, see ExecutionSandbox.privateTerminal), die with the
 * parent, every capability dropped (as root too); a new network namespace unless the network is 'on'.
 */
export function bwrapPlan(sandbox: ExecutionSandbox, inner: WrappablePlan, cwd: string): WrappablePlan {
  const writes = sandbox.profile === 'workspace-write'
  const network = sandbox.profile === 'read-only' ? 'off' : sandbox.network
  const args: string[] = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc']
  args.push('--tmpfs', '/tmp')
  args.push(writes ? '--bind' : '--ro-bind', sandbox.workspace, sandbox.workspace)
  // A cwd in the host's /tmp outside the workspace would vanish under step 2; it stays readable only.
  if (isInside(cwd, '/tmp') && !isInside(cwd, sandbox.workspace)) args.push('--ro-bind', cwd, cwd)
  if (writes) for (const root of sandbox.writableRoots) args.push('--bind', root, root)
  if (writes) for (const path of sandbox.protectedPaths) args.push('--ro-bind', path, path)
  for (const hidden of sandbox.hidden) {
    if (hidden.kind === 'dir') args.push('--tmpfs', hidden.path)
    else args.push('--ro-bind', requireEmptyFile(sandbox), hidden.path)
  }
  for (const exposed of sandbox.exposed) {
    args.push(exposed.writable ? '--bind' : '--ro-bind', exposed.path, exposed.path)
  }
  for (const hidden of sandbox.hidden) if (hidden.kind === 'dir') args.push('--remount-ro', hidden.path)
  if (network === 'allowlist') args.push('--bind', requireProxy(sandbox).socketPath, PROXY_SOCKET_INSIDE)

  args.push('--unshare-pid', '--unshare-ipc')
  if (network !== 'on') args.push('--unshare-net')
  args.push('--die-with-parent', ...(sandbox.privateTerminal ? [] : ['--new-session']), '--cap-drop', 'ALL')
  args.push('--setenv', 'TMPDIR', '/tmp')
  if (network === 'allowlist') args.push(...proxyEnv(requireProxy(sandbox).port))
  args.push('--chdir', cwd, '--')
  if (network === 'allowlist') args.push(...bridgeCommand(requireProxy(sandbox).port))
  args.push(inner.file, ...inner.args)
  return { file: sandbox.bwrapPath ?? DEFAULT_BWRAP_PATH, args, windowsVerbatimArguments: false }
}

function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`)
}

function requireEmptyFile(sandbox: ExecutionSandbox): string {
  if (!sandbox.emptyFile) throw new Error('hiding a file needs sandbox.emptyFile (an empty regular file)')
  return sandbox.emptyFile
}

function requireProxy(sandbox: ExecutionSandbox) {
  if (!sandbox.proxy) throw new Error('network "allowlist" needs the host proxy (sandbox.proxy)')
  return sandbox.proxy
}

function proxyEnv(port: number): string[] {
  const url = `http://127.0.0.1:${port}`
  const env: string[] = []
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy']) {
    env.push('--setenv', name, url)
  }
  // A NO_PROXY from the host would send those hosts straight at a network that does not exist.
  return [...env, '--unsetenv', 'NO_PROXY', '--unsetenv', 'no_proxy']
}

/**
 * Inside the network namespace only loopback exists. socat listens on 127.0.0.1:port and forwards
 * each connection to the host proxy's socket; the command starts once the port is listening
 * (read from /proc/net/tcp, which shows this namespace's sockets only).
 */
function bridgeCommand(port: number): string[] {
  const hex = port.toString(16).toUpperCase().padStart(4, '0')
  const script = [
    `${DEFAULT_SOCAT_PATH} TCP-LISTEN:${port},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${PROXY_SOCKET_INSIDE} &`,
    'i=0',
    `while ! grep -q '0100007F:${hex} 00000000:0000 0A' /proc/net/tcp; do`,
    `  i=$((i+1)); if [ "$i" -gt 1000 ]; then echo 'shellgate: the sandbox proxy bridge did not start' >&2; exit ${BRIDGE_FAILED_EXIT_CODE}; fi`,
    '  sleep 0.005',
    'done',
    'exec "$@"',
  ].join('\n')
  return ['/bin/sh', '-c', script, 'shellgate-bridge']
}
