import { spawn } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

export interface OpenerCommand {
  file: string
  args: string[]
}

/** The desktop's own "open this URL" program, per platform; null when there is none (a headless box). */
export function systemOpenerFor(
  url: string,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  isExecutable: (path: string) => boolean = canExecute,
): OpenerCommand | null {
  if (platform === 'darwin') return { file: '/usr/bin/open', args: [url] }
  if (platform === 'win32') {
    // rundll32 takes the URL as one argument: no cmd.exe, so no quoting of & or % in the address.
    const systemRoot = env.SystemRoot ?? env.SYSTEMROOT ?? 'C:\\Windows'
    return { file: `${systemRoot}\\System32\\rundll32.exe`, args: ['url.dll,FileProtocolHandler', url] }
  }
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, 'xdg-open')
    if (isExecutable(candidate)) return { file: candidate, args: [url] }
  }
  return null
}

/**
 * The one process Shellgate starts outside the execution port, on purpose: the browser it opens
 * must outlive us, so it is detached and never part of a tree we terminate.
 */
export async function openInSystemBrowser(
  url: string,
  options: { platform: NodeJS.Platform; env: NodeJS.ProcessEnv },
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const opener = systemOpenerFor(url, options.platform, options.env)
  if (!opener) return { ok: false, reason: 'no system opener (xdg-open) was found' }
  return new Promise((resolve) => {
    const child = spawn(opener.file, opener.args, { detached: true, stdio: 'ignore', windowsHide: true })
    let timer: NodeJS.Timeout | undefined
    const settle = (result: { ok: true } | { ok: false; reason: string }) => {
      clearTimeout(timer)
      resolve(result)
    }
    child.once('error', (error) => settle({ ok: false, reason: `${opener.file} failed: ${error.message}` }))
    // xdg-open starts fine on a box with no browser and then exits non-zero: wait for its verdict.
    // One still running after the wait has handed the URL to something that stays: that is a yes.
    child.once('exit', (code, signal) =>
      settle(
        code === 0
          ? { ok: true }
          : {
              ok: false,
              reason: `no browser could be opened (${opener.file} exited with ${code ?? signal})`,
            },
      ),
    )
    child.once('spawn', () => {
      child.unref()
      timer = setTimeout(() => settle({ ok: true }), OPENER_VERDICT_WAIT_MS)
      timer.unref()
    })
  })
}

/** How long `--open` waits for the opener to say it failed before taking silence as success. */
export const OPENER_VERDICT_WAIT_MS = 5_000

function canExecute(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}
