import { bwrapNetworkArgs } from './bwrap-network.linux'
import { byDepth } from './mount-order'
import type { ExecutionSandbox, WrappablePlan } from './types'

export const DEFAULT_BWRAP_PATH = '/usr/bin/bwrap'
export const DEFAULT_NSENTER_PATH = '/usr/bin/nsenter'
export { BRIDGE_FAILED_EXIT_CODE, DEFAULT_SOCAT_PATH } from './bwrap-network.linux'

/**
 * The bubblewrap command line for one command: a pure function of (policy, paths), so tests
 * compare it with tables and then run it.
 *
 * READS ARE DENIED BY DEFAULT: the new root is bwrap's own empty tmpfs, and only what the lists
 * name is mounted into it. THE ORDER OF THE MOUNTS IS THE SECURITY PROPERTY: bwrap applies them
 * left to right and a later mount covers an earlier one, so:
 *   1. the system's top-level symlinks (merged /usr: /bin -> usr/bin), a fresh /dev and /proc;
 *   2. empty tmpfs: a private /tmp (it hides the host's) and the home folder;
 *   3. the readable paths, read-only, shallowest first (system folders, toolchains, the person's
 *      folders, allowed home config files): after 2, since many live in the home folder;
 *   4. the workspace (writable under workspace-write, read-only under read-only: it may live in
 *      the host's /tmp, which 2 just hid), then the writable roots (tool caches, a linked
 *      worktree's git dir) and the workspace's own tool caches, each bound at the cache's place;
 *   5. protected paths read-only again inside those writable roots (.git/config, .git/hooks,
 *      .git/modules, <workspace>/.shellgate), and reopened ones writable inside them (an existing
 *      submodule's git dir), shallowest first so a deeper entry wins: after 4, or 4 would undo them;
 *   6. secrets hidden (an empty tmpfs that cannot be listed over a directory, an empty file of
 *      mode 000 over a file, so reading one fails with "Permission denied"): after 3, 4 and 5, so a
 *      secret inside a readable or writable root stays hidden;
 *   7. the few executor files under a hidden directory (shell snapshot, cwd capture file): after 6,
 *      or 6 would hide them;
 *   8. the hiding tmpfs made read-only: after 7, because 7 creates its mount points inside them;
 *   9. allowed host sockets (workspace-write only): after 6, so a socket the person allowed is
 *      reachable even where its folder is otherwise hidden;
 *  10. the run's network sockets (the proxy, allowed ports; only with a network), inside the private /tmp;
 *  11. the root tmpfs made read-only: last, since every step above creates mount points in it.
 * Then the namespaces: always a new PID namespace (nothing outlives the run), a new session (unless
 * the command has a private terminal, see ExecutionSandbox.privateTerminal), die with the parent,
 * every capability dropped (as root too), and always a new network namespace
 * (bwrap-network.linux.ts: egress only through the host proxy, never the host's loopback), or the
 * spare namespace made for this one command, joined by nsenter before bwrap starts.
 * Sources another sandboxed command could swap for a symlink (the workspace and what is under it,
 * the writable roots) are bound through the descriptors pinMountSources checked, never by name.
 */
export function bwrapPlan(sandbox: ExecutionSandbox, inner: WrappablePlan, cwd: string): WrappablePlan {
  const writes = sandbox.profile === 'workspace-write'
  const network = bwrapNetworkArgs(sandbox)
  // A pinned source is bound through the descriptor that was checked, never by its name again:
  // the child gets them as 3, 4, … in this order.
  const inheritFds: number[] = []
  const bind = (option: '--bind' | '--ro-bind', source: string, dest: string) => {
    const fd = sandbox.pinnedSources?.[source]
    if (fd === undefined) return args.push(option, source, dest)
    inheritFds.push(fd)
    return args.push(`${option}-fd`, String(2 + inheritFds.length), dest)
  }
  const args: string[] = []
  for (const link of sandbox.symlinks) args.push('--symlink', link.target, link.path)
  args.push('--dev', '/dev', '--proc', '/proc')
  args.push('--tmpfs', '/tmp')
  for (const dir of sandbox.emptyDirs) args.push('--tmpfs', dir)
  for (const entry of byDepth(sandbox.readable, (entry) => entry.path)) {
    bind('--ro-bind', entry.source ?? entry.path, entry.path)
  }
  bind(writes ? '--bind' : '--ro-bind', sandbox.workspace, sandbox.workspace)
  if (writes) for (const root of sandbox.writableRoots) bind('--bind', root, root)
  if (writes)
    for (const cache of sandbox.privateCaches) args.push('--bind', cache.source ?? cache.path, cache.path)
  if (writes) {
    const layers = [
      ...sandbox.protectedPaths.map((path) => ({ path, writable: false })),
      ...sandbox.reopenedPaths.map((path) => ({ path, writable: true })),
    ]
    for (const layer of byDepth(layers, (layer) => layer.path)) {
      bind(layer.writable ? '--bind' : '--ro-bind', layer.path, layer.path)
    }
  }
  for (const hidden of sandbox.hidden) {
    // 0111: the folder can be passed through (to an exposed file in it) but not listed.
    if (hidden.kind === 'dir') args.push('--perms', '0111', '--tmpfs', hidden.path)
    else
      args.push(
        '--ro-bind',
        hidden.readsEmpty ? requireBlankFile(sandbox) : requireEmptyFile(sandbox),
        hidden.path,
      )
  }
  for (const exposed of sandbox.exposed) {
    args.push(exposed.writable ? '--bind' : '--ro-bind', exposed.path, exposed.path)
  }
  for (const hidden of sandbox.hidden) if (hidden.kind === 'dir') args.push('--remount-ro', hidden.path)
  if (writes) for (const socket of sandbox.allowedSockets) args.push('--ro-bind', socket, socket)
  args.push(...network.mounts)
  args.push('--remount-ro', '/')

  args.push('--unshare-pid', '--unshare-ipc', ...network.namespace)
  args.push('--die-with-parent', ...(sandbox.privateTerminal ? [] : ['--new-session']), '--cap-drop', 'ALL')
  args.push('--setenv', 'TMPDIR', '/tmp', ...network.env)
  args.push('--chdir', cwd, '--', ...network.bridge)
  args.push(inner.file, ...inner.args)
  const bwrap = sandbox.bwrapPath ?? DEFAULT_BWRAP_PATH
  const fds = inheritFds.length > 0 ? { inheritFds } : {}
  if (network.join) {
    const joined = [`--net=${network.join}`, '--', bwrap, ...args]
    return { file: DEFAULT_NSENTER_PATH, args: joined, windowsVerbatimArguments: false, ...fds }
  }
  return { file: bwrap, args, windowsVerbatimArguments: false, ...fds }
}

function requireEmptyFile(sandbox: ExecutionSandbox): string {
  if (!sandbox.emptyFile) throw new Error('hiding a file needs sandbox.emptyFile (an empty regular file)')
  return sandbox.emptyFile
}

function requireBlankFile(sandbox: ExecutionSandbox): string {
  if (!sandbox.blankFile)
    throw new Error('a hidden config file needs sandbox.blankFile (an empty readable file)')
  return sandbox.blankFile
}
