import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import { isHomeSecret } from '../secrets/home-secrets'
import { isSecretFileName } from '../secrets/secret-file-names'
import { gitConfigFacts, iniCredential } from './config-credentials'
import { isInside, kindOf, readText, realOrNull } from './host-paths'
import type { LayoutEntry } from './layout-types'

type ConfigFormat = 'git' | 'ini' | 'plain'

/**
 * The home folder is an empty tmpfs inside the sandbox (issue 19); these are the few files in it
 * that tools read and that hold no secret, or are mounted only when they hold none. Shell start-up
 * files are not here: the shell snapshot already carries the person's shell setup.
 */
const HOME_CONFIG_FILES: readonly { path: string; format: ConfigFormat; why: string }[] = [
  { path: '.gitconfig', format: 'git', why: "git's name, email, aliases and defaults" },
  { path: '.config/git/config', format: 'git', why: "git's name, email, aliases and defaults (XDG)" },
  { path: '.config/git/ignore', format: 'plain', why: "git's global ignore patterns" },
  { path: '.config/git/attributes', format: 'plain', why: "git's global attributes" },
  { path: '.gitignore_global', format: 'plain', why: "the usual name of git's core.excludesFile" },
  { path: '.tool-versions', format: 'plain', why: 'asdf and mise: which tool versions to run' },
  { path: '.config/pip/pip.conf', format: 'ini', why: "pip's index and options" },
  { path: '.pip/pip.conf', format: 'ini', why: "pip's index and options" },
  { path: '.cargo/config.toml', format: 'ini', why: "cargo's build settings" },
  { path: '.cargo/config', format: 'ini', why: "cargo's build settings" },
]
/** Git stops following includes at ten levels; so do we. */
const INCLUDE_DEPTH_LIMIT = 10

export interface HomeConfigFiles {
  readable: LayoutEntry[]
  /** Files on the allow list that exist and are left out, with why (for `sandbox explain`). */
  leftOut: LayoutEntry[]
}

/**
 * The allow-listed files that exist, each checked: a git config with a credential key (the
 * secrets room's rule) is left out, and so is each file it includes that holds one; git skips an
 * include it cannot open, so the rest of the setup still works inside. core.excludesFile is
 * mounted where it points, when that is in the home folder and not a secret.
 */
export function homeConfigFiles(home: string): HomeConfigFiles {
  const readable: LayoutEntry[] = []
  const leftOut: LayoutEntry[] = []
  const seen = new Set<string>()
  const visit = (path: string, format: ConfigFormat, why: string, depth: number) => {
    if (seen.has(path) || depth > INCLUDE_DEPTH_LIMIT) return
    seen.add(path)
    if (kindOf(path) === null) return
    const real = realOrNull(path)
    if (!real || kindOf(real) !== 'file') return
    const refusal = secretPlace(path, home) ?? secretPlace(real, home)
    if (refusal) {
      leftOut.push({ path, kind: 'file', why: refusal })
      return
    }
    const text = format === 'plain' ? '' : readText(real)
    if (format === 'git') {
      const facts = gitConfigFacts(text)
      if (facts.credential) {
        leftOut.push({ path, kind: 'file', why: `holds a credential (${facts.credential})` })
        return
      }
      for (const include of facts.includes) {
        const target = expandGitPath(include, dirname(path), home)
        if (target) visit(target, 'git', `included by ${tilde(path, home)}`, depth + 1)
      }
      const excludes = facts.excludesFile ? expandGitPath(facts.excludesFile, dirname(path), home) : null
      if (excludes) visit(excludes, 'plain', `core.excludesFile of ${tilde(path, home)}`, depth + 1)
    } else if (format === 'ini') {
      const key = iniCredential(text)
      if (key) {
        leftOut.push({ path, kind: 'file', why: `holds a credential (${key})` })
        return
      }
    }
    readable.push({ path, ...(real !== path ? { source: real } : {}), kind: 'file', why })
  }
  for (const file of HOME_CONFIG_FILES)
    visit(join(home, file.path), file.format, `home config: ${file.why}`, 0)
  return { readable, leftOut }
}

/** Why a path may never be mounted (the secrets room's lists), or null. Only home files are mounted here. */
function secretPlace(path: string, home: string): string | null {
  if (!isInside(path, home)) return 'outside the home folder'
  const relative = path.slice(home.length + 1)
  if (isHomeSecret(relative)) return `a secret location (~/${relative})`
  if (isSecretFileName(basename(path))) return `a secret file name (${basename(path)})`
  return null
}

/** `~/x` and relative paths as git reads them in a config file (relative to that file's folder). */
function expandGitPath(value: string, from: string, home: string): string | null {
  if (value === '') return null
  if (value === '~' || value.startsWith('~/')) return join(home, value.slice(2))
  if (value.startsWith('~')) return null
  return isAbsolute(value) ? resolve(value) : resolve(from, value)
}

function tilde(path: string, home: string): string {
  return isInside(path, home) ? `~/${path.slice(home.length + 1)}` : path
}
