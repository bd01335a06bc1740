import type { SandboxLayout } from './sandbox-layout'
import type { ExecutionSandbox, ExposedPath } from './types'

/** The execution request's half of a layout: the paths alone, the reasons stay with the planner. */
export function sandboxOf(
  layout: SandboxLayout,
  extras: Pick<ExecutionSandbox, 'emptyFile' | 'blankFile' | 'network' | 'bwrapPath'> & {
    exposed: ExposedPath[]
  },
): ExecutionSandbox {
  const paths = (entries: { path: string }[]) => entries.map((entry) => entry.path)
  return {
    profile: layout.profile,
    readable: layout.readable.map(({ path, source, kind }) => ({
      path,
      ...(source ? { source } : {}),
      kind,
    })),
    symlinks: layout.symlinks,
    emptyDirs: paths(layout.emptyDirs),
    workspace: layout.workspace.path,
    writableRoots: paths(layout.writable),
    privateCaches: layout.privateCaches.map(({ path, source, kind }) => ({
      path,
      source: source ?? path,
      kind,
    })),
    protectedPaths: paths(layout.protected),
    reopenedPaths: paths(layout.reopened),
    hidden: layout.hidden.map(({ path, kind, readsEmpty }) => ({
      path,
      kind,
      ...(readsEmpty ? { readsEmpty } : {}),
    })),
    allowedSockets: paths(layout.allowedSockets),
    ...extras,
  }
}
