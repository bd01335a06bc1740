import { join } from 'node:path'

/**
 * The fallback when no login shell could be captured (seed 000: a patch that runs no shell): the
 * directories package managers install into, appended to nothing the process already has, in the
 * order a typical rc file would put them first.
 */
export function patchPathWithoutShell(
  path: string | undefined,
  options: { home: string; platform: NodeJS.Platform; isDirectory: (dir: string) => boolean },
): string {
  const { home, platform } = options
  const wanted = [
    join(home, '.local', 'bin'),
    join(home, 'bin'),
    join(home, '.cargo', 'bin'),
    join(home, 'go', 'bin'),
    join(home, '.volta', 'bin'),
    join(home, '.bun', 'bin'),
    ...(platform === 'darwin' ? ['/opt/homebrew/bin', '/opt/homebrew/sbin'] : []),
    '/usr/local/bin',
    '/usr/local/sbin',
    '/usr/bin',
    '/bin',
    '/usr/sbin',
    '/sbin',
  ]
  const current = (path ?? '').split(':').filter(Boolean)
  const added = wanted.filter((dir) => !current.includes(dir) && options.isDirectory(dir))
  return [...added, ...current].join(':')
}
