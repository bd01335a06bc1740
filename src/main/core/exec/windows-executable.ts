import { statSync } from 'node:fs'
import { win32 } from 'node:path'
import { getEnvValue } from './windows-env'

/** seed 000: PATHEXT when the environment has none. */
export const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD'

export type IsFile = (path: string) => boolean

export const isRegularFile: IsFile = (path) => {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/**
 * Finds what Windows would run for `file`: a path with a directory is tried as is and with each
 * PATHEXT extension; a bare name is looked up in the cwd's PATH entries the same way. Null when
 * nothing matches (spawn then reports ENOENT itself).
 */
export function resolveWindowsExecutable(
  file: string,
  env: Record<string, string | undefined>,
  cwd: string,
  isFile: IsFile = isRegularFile,
): string | null {
  const extensions = (getEnvValue(env, 'PATHEXT', 'win32') || DEFAULT_PATHEXT)
    .split(';')
    .map((extension) => extension.trim())
    .filter(Boolean)
  const hasExtension = extensions.some((extension) => file.toLowerCase().endsWith(extension.toLowerCase()))
  const candidatesFor = (base: string) =>
    hasExtension ? [base] : [...extensions.map((extension) => `${base}${extension}`), base]

  if (/[\\/]/.test(file) || win32.isAbsolute(file)) {
    return candidatesFor(win32.resolve(cwd, file)).find(isFile) ?? null
  }
  // Only absolute entries: a relative one (`.`, `bin`) would search the cwd, which may be a
  // repository with a planted git.exe.
  const directories = (getEnvValue(env, 'PATH', 'win32') ?? '')
    .split(';')
    .map((entry) => entry.trim().replace(/^"(.*)"$/, '$1'))
    .filter((entry) => entry !== '' && win32.isAbsolute(entry) && !/^[\\/](?![\\/])/.test(entry))
  for (const directory of directories) {
    const found = candidatesFor(win32.join(directory, file)).find(isFile)
    if (found) return found
  }
  return null
}
