import { win32 } from 'node:path'
import { readEnv } from '../env/env-keys'
import type { ShellCandidate, ShellDiscovery, ShellFs, ShellSelection, ShellSettings } from './types'
import { shellEnvOverlay } from './types'

/**
 * Windows: the setting (Git Bash or CMD) when its path works; else Git Bash found where its
 * installer puts it; else cmd.exe from ComSpec. Never PowerShell: the Bash tool speaks POSIX sh
 * or, failing that, cmd, and a PowerShell ComSpec is replaced by the real cmd.exe.
 */
export function discoverWin32Shells(
  env: Readonly<Record<string, string>>,
  settings: ShellSettings,
  fs: ShellFs,
): ShellDiscovery {
  const problems: string[] = []
  const candidates = gitBashCandidates(env, fs)
  const cmd = cmdExe(env, problems)
  candidates.push({ dialect: 'cmd', path: cmd, foundIn: 'ComSpec' })
  const selection =
    fromSetting(settings, candidates, fs, problems) ?? fromGitBash(candidates) ?? systemCmd(cmd)
  return { candidates, selection, problems }
}

/** Program Files, Program Files (x86), two levels up from git.exe on PATH, then the per-user install. */
export function gitBashCandidates(env: Readonly<Record<string, string>>, fs: ShellFs): ShellCandidate[] {
  const get = (name: string) => readEnv(env, name, 'win32')?.trim()
  const places: Array<{ path: string; foundIn: string }> = []
  const programFiles = get('ProgramFiles') || 'C:\\Program Files'
  places.push({ path: win32.join(programFiles, 'Git', 'bin', 'bash.exe'), foundIn: 'Program Files' })
  const programFilesX86 = get('ProgramFiles(x86)') || 'C:\\Program Files (x86)'
  places.push({ path: win32.join(programFilesX86, 'Git', 'bin', 'bash.exe'), foundIn: 'Program Files (x86)' })
  for (const dir of (get('PATH') ?? '').split(';').filter(Boolean)) {
    const gitExe = win32.join(dir, 'git.exe')
    // <root>\cmd\git.exe or <root>\bin\git.exe: bash.exe sits in <root>\bin.
    if (fs.isExecutable(gitExe))
      places.push({ path: win32.join(dir, '..', 'bin', 'bash.exe'), foundIn: 'git.exe on PATH' })
  }
  const localAppData = get('LOCALAPPDATA')
  if (localAppData)
    places.push({
      path: win32.join(localAppData, 'Programs', 'Git', 'bin', 'bash.exe'),
      foundIn: 'LocalAppData',
    })
  const seen = new Set<string>()
  const found: ShellCandidate[] = []
  for (const { path, foundIn } of places) {
    const key = path.toLowerCase()
    if (seen.has(key) || !fs.isExecutable(path)) continue
    seen.add(key)
    found.push({ dialect: 'git-bash', path, foundIn })
  }
  return found
}

function cmdExe(env: Readonly<Record<string, string>>, problems: string[]): string {
  const comSpec = readEnv(env, 'ComSpec', 'win32')?.trim()
  if (comSpec && win32.basename(comSpec).toLowerCase() === 'cmd.exe') return comSpec
  const systemRoot = readEnv(env, 'SystemRoot', 'win32')?.trim() || 'C:\\Windows'
  if (comSpec) problems.push(`ComSpec points at ${comSpec}, not cmd.exe; using the system cmd.exe`)
  return win32.join(systemRoot, 'System32', 'cmd.exe')
}

function select(
  dialect: 'git-bash' | 'cmd',
  path: string,
  source: ShellSelection['source'],
  reason: string,
): ShellSelection {
  return { dialect, path, source, reason, envOverlay: shellEnvOverlay(dialect, path) }
}

function fromSetting(settings: ShellSettings, candidates: ShellCandidate[], fs: ShellFs, problems: string[]) {
  if (settings.kind === 'auto') return null
  if (settings.kind !== 'git-bash' && settings.kind !== 'cmd') {
    problems.push(`the shell setting "${settings.kind}" is not available on Windows; detecting instead`)
    return null
  }
  const path = settings.path?.trim()
  const name = settings.kind === 'cmd' ? 'CMD' : 'Git Bash'
  if (path) {
    if (fs.isExecutable(path)) return select(settings.kind, path, 'setting', `the ${name} set in Settings`)
    problems.push(`the ${name} set in Settings (${path}) is not an executable file; detecting instead`)
    return null
  }
  const found = candidates.find((c) => c.dialect === settings.kind)
  return found
    ? select(settings.kind, found.path, 'setting', `Settings ask for ${name}; found in ${found.foundIn}`)
    : null
}

function fromGitBash(candidates: ShellCandidate[]) {
  const found = candidates.find((c) => c.dialect === 'git-bash')
  return found
    ? select('git-bash', found.path, 'auto-git-bash', `Git Bash detected in ${found.foundIn}`)
    : null
}

function systemCmd(cmd: string): ShellSelection {
  return select('cmd', cmd, 'system', 'Git Bash was not found; using cmd.exe from ComSpec')
}
