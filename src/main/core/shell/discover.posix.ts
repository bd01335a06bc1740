import { posix } from 'node:path'
import type { ShellCandidate, ShellDiscovery, ShellFs, ShellSelection, ShellSettings } from './types'
import { shellEnvOverlay } from './types'

/** Where shells live when PATH does not say (seed 000): system dirs, then Homebrew on Intel and Apple silicon. */
export const POSIX_SHELL_DIRS = ['/bin', '/usr/bin', '/usr/local/bin', '/opt/homebrew/bin']

/** Node's default shell: what runs when neither bash nor zsh exists. */
const SYSTEM_SHELL = '/bin/sh'

type PosixShellName = 'bash' | 'zsh'

/**
 * macOS and Linux: the setting when it points at bash or zsh that works; $SHELL when it is bash
 * or zsh; else the first zsh, then bash on PATH and the usual dirs (bash first when $SHELL is
 * bash); else /bin/sh.
 */
export function discoverPosixShells(
  env: Readonly<Record<string, string>>,
  settings: ShellSettings,
  fs: ShellFs,
): ShellDiscovery {
  const problems: string[] = []
  const shellVar = env.SHELL?.trim() ?? ''
  const shellVarName = posix.basename(shellVar)
  const pathDirs = (env.PATH ?? '').split(':').filter((d) => d.startsWith('/'))
  const dirs = [...new Set([...pathDirs, ...POSIX_SHELL_DIRS])]
  const candidates: ShellCandidate[] = []
  const seen = new Set<string>()
  const add = (path: string, dialect: PosixShellName, foundIn: string) => {
    if (seen.has(path) || !fs.isExecutable(path)) return
    seen.add(path)
    candidates.push({ dialect, path, foundIn })
  }
  if (shellVar && !fs.isExecutable(shellVar)) problems.push(`$SHELL ${shellVar} does not exist`)
  else if (isPosixShellName(shellVarName) && shellVar.startsWith('/')) add(shellVar, shellVarName, '$SHELL')
  const order: PosixShellName[] = shellVarName === 'bash' ? ['bash', 'zsh'] : ['zsh', 'bash']
  for (const name of order)
    for (const dir of dirs) add(posix.join(dir, name), name, pathDirs.includes(dir) ? 'PATH' : dir)

  const selection =
    fromSetting(settings, candidates, fs, problems) ??
    fromShellVar(shellVar, shellVarName, candidates) ??
    fromSearch(order, candidates) ??
    systemShell()
  return { candidates, selection, problems }
}

function isPosixShellName(name: string): name is PosixShellName {
  return name === 'bash' || name === 'zsh'
}

function select(
  dialect: PosixShellName,
  path: string,
  source: ShellSelection['source'],
  reason: string,
): ShellSelection {
  return { dialect, path, source, reason, envOverlay: shellEnvOverlay(dialect, path) }
}

function fromSetting(settings: ShellSettings, candidates: ShellCandidate[], fs: ShellFs, problems: string[]) {
  if (settings.kind !== 'bash' && settings.kind !== 'zsh') {
    if (settings.kind !== 'auto')
      problems.push(`the shell setting "${settings.kind}" is for Windows; detecting instead`)
    return null
  }
  const path = settings.path?.trim()
  if (path) {
    if (fs.isExecutable(path))
      return select(settings.kind, path, 'setting', `the ${settings.kind} set in Settings`)
    problems.push(
      `the ${settings.kind} set in Settings (${path}) is not an executable file; detecting instead`,
    )
    return null
  }
  const found = candidates.find((c) => c.dialect === settings.kind)
  if (found)
    return select(
      found.dialect as PosixShellName,
      found.path,
      'setting',
      `Settings ask for ${settings.kind}; found in ${found.foundIn}`,
    )
  problems.push(`Settings ask for ${settings.kind} but none was found; detecting instead`)
  return null
}

function fromShellVar(shellVar: string, name: string, candidates: ShellCandidate[]) {
  if (!isPosixShellName(name) || !candidates.some((c) => c.path === shellVar)) return null
  return select(name, shellVar, 'env-shell', `$SHELL is ${name}`)
}

function fromSearch(order: PosixShellName[], candidates: ShellCandidate[]) {
  for (const name of order) {
    const found = candidates.find((c) => c.dialect === name)
    if (found)
      return select(
        name,
        found.path,
        'search',
        `$SHELL is not bash or zsh; first ${name} found in ${found.foundIn}`,
      )
  }
  return null
}

function systemShell(): ShellSelection {
  return {
    dialect: 'sh',
    path: SYSTEM_SHELL,
    source: 'system',
    reason: 'neither bash nor zsh was found; using the system shell',
    // The system shell hangs on an editor as easily as bash does.
    envOverlay: { GIT_EDITOR: 'true', SHELL: SYSTEM_SHELL },
  }
}
