import { realpathSync } from 'node:fs'
import path from 'node:path'
import { HOME_SECRET_PATHS } from '../../secrets/home-secrets'
import { isSecretFileName } from '../../secrets/secret-file-names'

/**
 * The secrets locations under one home (and SHELLGATE_HOME), each as written and where it really
 * is, lower-cased: macOS and Windows file systems ignore case, so ~/.SSH/id_rsa is ~/.ssh/id_rsa
 * there. Kept as sets of the roots and of every folder above them, so a path is judged by walking
 * its own ancestors (a dozen lookups) instead of comparing it with every root.
 */
export interface SecretRoots {
  roots: ReadonlySet<string>
  /** Every strict ancestor of a root: reading one of them reads the root too (`grep -r k ~`). */
  above: ReadonlySet<string>
  /** SHELLGATE_HOME as given, resolved: one of the roots, kept apart for the hard-link check. */
  dir: string
}

// Roots are resolved once per home: resolving seventy of them on every classify cost more than the parse.
const RESOLVED = new Map<string, SecretRoots>()
const MAX_HOMES = 64

export function secretRoots(home: string, shellgateHome: string | undefined): SecretRoots {
  const given = shellgateHome ?? process.env.SHELLGATE_HOME ?? path.join(home, '.shellgate')
  const key = `${home}\0${given}`
  const found = RESOLVED.get(key)
  if (found) return found
  const dir = path.resolve(given)
  const made = { ...resolveRoots([...HOME_SECRET_PATHS.map((entry) => path.join(home, entry)), dir]), dir }
  if (RESOLVED.size >= MAX_HOMES) RESOLVED.clear()
  RESOLVED.set(key, made)
  return made
}

function resolveRoots(written: readonly string[]): Omit<SecretRoots, 'dir'> {
  const roots = new Set<string>()
  const above = new Set<string>()
  for (const root of written) {
    for (const variant of [root, realOrNull(root)]) {
      if (variant === null) continue
      const lower = variant.toLowerCase()
      roots.add(lower)
      for (let dir = path.dirname(lower); ; dir = path.dirname(dir)) {
        above.add(dir)
        if (path.dirname(dir) === dir) break
      }
    }
  }
  return { roots, above }
}

/**
 * A secrets location itself, anything inside it, a secret-named file anywhere (`.env`, `*.pem`),
 * or a folder that holds one of the locations (`grep -r token ~` reads ~/.ssh too).
 */
export function secretRelation(given: string, secrets: SecretRoots): 'is' | 'holds' | null {
  if (isSecretFileName(path.basename(given))) return 'is'
  const candidate = given.toLowerCase()
  for (let dir = candidate; ; dir = path.dirname(dir)) {
    if (secrets.roots.has(dir)) return 'is'
    if (path.dirname(dir) === dir) break
  }
  return secrets.above.has(candidate) ? 'holds' : null
}

function realOrNull(file: string): string | null {
  try {
    return realpathSync.native(file)
  } catch {
    return null
  }
}
