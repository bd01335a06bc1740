import { closeSync, openSync, readlinkSync } from 'node:fs'
import { isInside } from './host-paths'
import type { ExecutionSandbox } from './types'

/**
 * bwrap resolves each mount's source by name when it mounts it, a moment after the layout was
 * planned, following every symlink on the way. Another sandboxed command running in the same
 * workspace (a background task, a second agent) can swap a planned folder for a symlink in that
 * moment: `sub/.git/objects` turned into `../../../home` had bwrap bind the person's real home,
 * writable, into the next command (a red-team finding). So every source a sandboxed command could
 * have swapped is opened here first (O_PATH: no read permission needed, a FIFO never blocks) and
 * checked by the kernel's own answer of where the descriptor leads; bwrap then gets the descriptor
 * itself (`--bind-fd`), so it mounts that very folder or file, whatever the name leads to by then.
 * (A `/proc/<pid>/fd/<n>` path would do as root, but unprivileged bwrap, inside its own user
 * namespace, may not look into this process's descriptors.) bwrap closes each one once mounted,
 * so the command never holds it; this process keeps them open until the run is released.
 */
const O_PATH = 0o10000000

/** Sources no sandboxed command can write: root's system folders. */
const SYSTEM_ROOTS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc']

export class MountSourceChangedError extends Error {
  override name = 'MountSourceChangedError'
}

export interface PinnedSources {
  /** Each pinned source path and this process's descriptor of it, which bwrap mounts instead. */
  sources: Record<string, number>
  close(): void
}

/**
 * Opens and checks every bind source of the sandbox outside the system folders: the workspace,
 * the writable roots and everything under them must still lead to a place inside the same root
 * (each is planned without symlinks, so normally to itself), anything else to itself: planned
 * sources are real paths. Throws MountSourceChangedError, with every descriptor closed, when one does not.
 */
export function pinMountSources(sandbox: ExecutionSandbox): PinnedSources {
  const sources: Record<string, number> = {}
  const held: number[] = []
  const roots = [sandbox.workspace, ...sandbox.writableRoots]
  try {
    for (const source of bindSources(sandbox)) {
      if (source in sources || SYSTEM_ROOTS.some((root) => isInside(source, root))) continue
      const fd = openPath(source)
      held.push(fd)
      const actual = readlinkSync(`/proc/self/fd/${fd}`)
      const root = roots.find((candidate) => isInside(source, candidate))
      // Outside those roots a source must be the very path planned: the planner mounts real paths
      // (a linked dotfile or toolchain by its `source`). Resolving the name again here would follow
      // a link swapped in since, by a command writing in another workspace (a red-team finding).
      const stays = root !== undefined ? isInside(actual, root) : actual === source
      if (!stays)
        throw new MountSourceChangedError(
          `${source} changed while the sandbox was being prepared (it now leads to ${actual}): a command running at the same time may be trying to reach outside its sandbox, so this one was not started`,
        )
      sources[source] = fd
    }
  } catch (error) {
    for (const fd of held) closeSync(fd)
    throw error
  }
  let closed = false
  return {
    sources,
    close: () => {
      if (closed) return
      closed = true
      for (const fd of held) closeSync(fd)
    },
  }
}

/**
 * The sources bwrapPlan binds, each its own real path as planned. Not the private caches nor the
 * executor's exposed files: both live in SHELLGATE_HOME, which no sandboxed command sees, and an
 * exposed file may not exist until the run makes it.
 */
function bindSources(sandbox: ExecutionSandbox): string[] {
  const writes = sandbox.profile === 'workspace-write'
  return [
    ...sandbox.readable.map((entry) => entry.source ?? entry.path),
    sandbox.workspace,
    ...(writes ? [...sandbox.writableRoots, ...sandbox.protectedPaths, ...sandbox.reopenedPaths] : []),
  ]
}

function openPath(path: string): number {
  try {
    // libuv adds O_CLOEXEC itself: no other child inherits these.
    return openSync(path, O_PATH)
  } catch (error) {
    throw new MountSourceChangedError(
      `${path} could not be opened to mount it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): it changed while the sandbox was being prepared, so the command was not started`,
    )
  }
}
