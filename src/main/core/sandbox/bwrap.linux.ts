import { bwrapNetworkArgs } from './bwrap-network.linux'
import type { ExecutionSandbox, WrappablePlan } from './types'

export const DEFAULT_BWRAP_PATH = '/usr/bin/bwrap'
export { BRIDGE_FAILED_EXIT_CODE, DEFAULT_SOCAT_PATH } from './bwrap-network.linux'

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
 *   8. the run's network sockets (proxy, allowed ports; only with a network), inside the private /tmp.
 * Then the namespaces: always a new PID namespace (nothing outlives the run), a new session (unless
 * the command has a private terminal, see ExecutionSandbox.privateTerminal), die with the parent,
 * every capability dropped (as root too), and always a new network namespace
 * (bwrap-network.linux.ts: egress only through the host proxy, never the host's loopback).
 */
export function bwrapPlan(sandbox: ExecutionSandbox, inner: WrappablePlan, cwd: string): WrappablePlan {
  const writes = sandbox.profile === 'workspace-write'
  const network = bwrapNetworkArgs(sandbox)
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
  args.push(...network.mounts)

  args.push('--unshare-pid', '--unshare-ipc', ...network.namespace)
  args.push('--die-with-parent', ...(sandbox.privateTerminal ? [] : ['--new-session']), '--cap-drop', 'ALL')
  args.push('--setenv', 'TMPDIR', '/tmp', ...network.env)
  args.push('--chdir', cwd, '--', ...network.bridge)
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
