import { win32 } from 'node:path'
import type { KillTreeReport } from './kill-tree.posix'
import type { SpawnFunction } from './spawn-function'

/** Windows has no process groups to signal: taskkill walks the tree (/T) and forces it (/F). */
export function killWin32Tree(
  pid: number,
  env: Record<string, string | undefined>,
  spawnFile: SpawnFunction,
): Promise<KillTreeReport> {
  if (!Number.isSafeInteger(pid) || pid <= 0) {
    return Promise.resolve({ signalledPids: [], escalated: true, remaining: [] })
  }
  // Resolved from %SystemRoot%, never from PATH: a taskkill.exe planted in the workspace must not run.
  const taskkill = win32.join(systemRoot(env), 'System32', 'taskkill.exe')
  return new Promise((resolve) => {
    const done = () => resolve({ signalledPids: [pid], escalated: true, remaining: [] })
    const child = spawnFile(taskkill, ['/pid', String(pid), '/T', '/F'], {
      stdio: 'ignore',
      windowsHide: true,
    })
    child.once('error', done)
    child.once('close', done)
  })
}

function systemRoot(env: Record<string, string | undefined>): string {
  for (const [key, value] of Object.entries(env)) {
    if (key.toLowerCase() === 'systemroot' && value) return value
  }
  return 'C:\\Windows'
}
