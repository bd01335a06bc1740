import { existsSync, statSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'
import { isDomainPattern, type SandboxSettings } from '../../../shared/settings'

/** One bad entry in the sandbox settings, worded for Settings and for the command's result. */
export interface SandboxSettingProblem {
  code: 'invalid_domain' | 'missing_cache' | 'relative_path' | 'not_a_socket'
  field: 'allowlist' | 'denylist' | 'toolCaches' | 'hiddenPaths' | 'readablePaths' | 'allowedSockets'
  entry: string
  message: string
}

/** A host name, or `*.` and a name for its subdomains (the one check, in src/shared/settings). */
export const isAllowlistDomain = isDomainPattern

/** `~/x` is under the home directory; anything else must be absolute. */
export function expandHome(entry: string, home: string): string | null {
  if (entry === '~') return home
  if (entry.startsWith('~/')) return join(home, entry.slice(2))
  return isAbsolute(entry) ? entry : null
}

export function checkSandboxSettings(settings: SandboxSettings, home: string): SandboxSettingProblem[] {
  const problems: SandboxSettingProblem[] = []
  for (const field of ['allowlist', 'denylist'] as const) {
    for (const entry of settings[field] ?? []) {
      if (isAllowlistDomain(entry)) continue
      problems.push({
        code: 'invalid_domain',
        field,
        entry,
        message: `sandbox.${field}: "${entry}" is not a domain (write a host name such as registry.npmjs.org or *.github.com); it is ignored`,
      })
    }
  }
  for (const entry of settings.toolCaches ?? []) {
    const path = expandHome(entry, home)
    if (path === null) problems.push(relative('toolCaches', entry))
    else if (!existsSync(path)) {
      problems.push({
        code: 'missing_cache',
        field: 'toolCaches',
        entry,
        message: `sandbox.toolCaches: "${entry}" does not exist, so it is not made writable; create it or remove the entry`,
      })
    }
  }
  for (const entry of settings.hiddenPaths) {
    if (expandHome(entry, home) === null) problems.push(relative('hiddenPaths', entry))
  }
  for (const entry of settings.readablePaths ?? []) {
    if (expandHome(entry, home) === null) problems.push(relative('readablePaths', entry))
  }
  for (const entry of settings.allowedSockets ?? []) {
    const path = expandHome(entry, home)
    if (path === null) problems.push(relative('allowedSockets', entry))
    else if (!isSocket(path)) {
      problems.push({
        code: 'not_a_socket',
        field: 'allowedSockets',
        entry,
        message: `sandbox.allowedSockets: "${entry}" is not a Unix socket (is its service running?), so nothing is allowed for it`,
      })
    }
  }
  return problems
}

function isSocket(path: string): boolean {
  try {
    return statSync(path).isSocket()
  } catch {
    return false
  }
}

function relative(
  field: 'toolCaches' | 'hiddenPaths' | 'readablePaths' | 'allowedSockets',
  entry: string,
): SandboxSettingProblem {
  return {
    code: 'relative_path',
    field,
    entry,
    message: `sandbox.${field}: "${entry}" is neither absolute nor under ~/; it is ignored`,
  }
}
