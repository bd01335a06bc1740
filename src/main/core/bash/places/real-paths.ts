import path from 'node:path'
import type { FsLookups } from './fs-lookups'

/** The real path: the folder's (cached), then the file itself only when it is a symlink. */
export function realPath(file: string, lookups: FsLookups): string {
  const parent = path.dirname(file)
  const realParent = parent === file ? file : lookups.realFolder(parent)
  if (realParent === null) return realOrNearest(file, lookups)
  const stats = lookups.lstat(file)
  if (stats?.isSymbolicLink()) return lookups.realpath(file) ?? realOrNearest(file, lookups)
  return parent === file ? realParent : path.join(realParent, path.basename(file))
}

/**
 * The real path of `raw` as the kernel walks it, `..` after a symlink included; for a path that
 * does not exist, its nearest existing parent's (path.dirname keeps `..` as written).
 */
export function kernelPath(raw: string, lookups: FsLookups): string {
  let rest: string[] = []
  for (let current = raw; ; current = path.dirname(current)) {
    const real = lookups.realpath(current)
    if (real !== null) return path.join(real, ...rest)
    if (path.dirname(current) === current) return path.resolve(raw)
    rest = [path.basename(current), ...rest]
  }
}

/** The real path, or for a path that does not exist the real path of its nearest existing parent. */
function realOrNearest(file: string, lookups: FsLookups): string {
  let rest = ''
  for (let current = file; ; current = path.dirname(current)) {
    const real = current === file ? lookups.realpath(current) : lookups.realFolder(current)
    if (real !== null) return rest ? path.join(real, rest) : real
    if (path.dirname(current) === current) return file
    rest = rest ? path.join(path.basename(current), rest) : path.basename(current)
  }
}

/** Both paths absolute and normalised (path.resolve, realpath), so a prefix test is exact. */
export function isInside(file: string, dir: string): boolean {
  if (file === dir) return true
  return file.startsWith(dir.endsWith(path.sep) ? dir : `${dir}${path.sep}`)
}
