import { win32 } from 'node:path'
import type { KillTreeReport } from './kill-tree.posix'
import type { SpawnFunction } from './spawn-function'

/** taskkill's exit code when the pid names no process (the root already exited). */
export const TASKKILL_NO_SUCH_PROCESS = 128

/**
 * Windows has no process groups to signal: taskkill walks the tree (/T) and forces it (/F). Its
 * exit code is the only news of what happened, so it is read, never assumed to mean "killed".
 *
 * /T follows parent pids, so once the root has exited its children are orphans taskkill cannot
 * find: such a tree may outlive its root, and the report says so. Node cannot create Job Objects;
 * a native helper that put each child in a job with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE would kill
 * the whole tree, orphans included, with one TerminateJobObject.
 */
export function killWin32Tree(
  pid: number,
  env: Record<string, string | undefined>,
  spawnFile: SpawnFunction,
): Promise<KillTreeReport> {
  if (!Number.isSafeInteger(pid) || pid <= 0) {
    return Promise.resolve(failed(pid, `no valid pid to kill (${pid})`))
  }
  // Resolved from %SystemRoot%, never from PATH: a taskkill.exe planted in the workspace must not run.
  const taskkill = win32.join(systemRoot(env), 'System32', 'taskkill.exe')
  return new Promise((resolve) => {
    let settled = false
    const done = (report: KillTreeReport) => {
      if (settled) return
      settled = true
      resolve(report)
    }
    const child = spawnFile(taskkill, ['/pid', String(pid), '/T', '/F'], {
      stdio: 'ignore',
      windowsHide: true,
    })
    child.once('error', (error) => done(failed(pid, `taskkill could not start: ${error.message}`)))
    child.once('close', (code: number | null) => {
      if (code === 0)
        done({ signalledPids: [pid], escalated: true, remaining: [], foundPids: [], failure: null })
      else if (code === TASKKILL_NO_SUCH_PROCESS)
        done({
          signalledPids: [],
          escalated: true,
          remaining: [],
          foundPids: [],
          rootAlreadyExited: true,
          failure: `taskkill found no process ${pid} (exit ${code}): it had already exited, and processes it started may still be running`,
        })
      else done(failed(pid, `taskkill exited with ${code ?? 'no code'}; process ${pid} may still be running`))
    })
  })
}

function failed(pid: number, failure: string): KillTreeReport {
  return { signalledPids: [], escalated: true, remaining: pid > 0 ? [pid] : [], foundPids: [], failure }
}

export function systemRoot(env: Record<string, string | undefined>): string {
  for (const [key, value] of Object.entries(env)) {
    if (key.toLowerCase() === 'systemroot' && value) return value
  }
  return 'C:\\Windows'
}
