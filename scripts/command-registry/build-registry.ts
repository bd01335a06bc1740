import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  type CompactNode,
  type CompactStats,
  compactSpec,
  compareNodes,
  type FigSubcommand,
} from './compact-spec'

/** The exact Fig release the committed registry was built from; any other version is refused. */
export const FIG_PACKAGE = '@withfig/autocomplete'
export const FIG_PINNED_VERSION = '2.692.3'
/** The registry ships inside the app; past this size something is wrong with the input. */
export const REGISTRY_MAX_BYTES = 3 * 1024 * 1024

export interface RegistryHeader {
  source: string
  version: string
  /** sha256 over every root spec file read, in name order: `name\0contents\0`. */
  sha256: string
  roots: number
  skippedLoadSpec: number
  skippedDynamic: number
  /** Versioned specs (a folder of per-version files chosen at run time): not walked. */
  skippedVersioned: string[]
}

/** Builds the registry text from the installed Fig package; byte-identical for the same input. */
export async function buildRegistry(
  packageDir: string,
  maxBytes: number = REGISTRY_MAX_BYTES,
): Promise<string> {
  const version = await installedVersion(packageDir)
  if (version !== FIG_PINNED_VERSION) {
    throw new Error(
      `${FIG_PACKAGE} must be exactly ${FIG_PINNED_VERSION} (installed: ${version}); pin it before regenerating`,
    )
  }
  const hash = createHash('sha256')
  const stats: CompactStats = { skippedLoadSpec: 0, skippedDynamic: 0 }
  const roots: CompactNode[] = []
  const skippedVersioned: string[] = []
  for (const name of await rootSpecNames(packageDir)) {
    const file = join(packageDir, 'build', `${name}.js`)
    const source = await readFile(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null
      throw error
    })
    if (source === null) {
      skippedVersioned.push(name)
      continue
    }
    hash.update(`${name}\0`).update(source).update('\0')
    const spec = ((await import(pathToFileURL(file).href)) as { default?: FigSubcommand }).default
    if (!spec || typeof spec !== 'object' || spec.name === undefined) {
      stats.skippedDynamic += 1
      continue
    }
    roots.push(compactSpec(spec, stats))
  }
  roots.sort(compareNodes)
  const header: RegistryHeader = {
    source: FIG_PACKAGE,
    version,
    sha256: hash.digest('hex'),
    roots: roots.length,
    ...stats,
    skippedVersioned,
  }
  // One root per line keeps diffs of a version bump readable.
  const text = `{"header":${JSON.stringify(header)},\n"commands":[\n${roots.map((root) => JSON.stringify(root)).join(',\n')}\n]}\n`
  const bytes = Buffer.byteLength(text)
  if (bytes > maxBytes) {
    throw new Error(`the command registry is ${bytes} bytes, over the ${maxBytes}-byte cap`)
  }
  return text
}

async function installedVersion(packageDir: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as {
    version?: unknown
  }
  return String(manifest.version)
}

/** Top-level commands only: `aws/s3`-style entries are the loadSpec targets the walk does not follow. */
async function rootSpecNames(packageDir: string): Promise<string[]> {
  const index = (await import(pathToFileURL(join(packageDir, 'build', 'index.js')).href)) as {
    default: unknown
  }
  if (!Array.isArray(index.default)) throw new Error(`${FIG_PACKAGE}: build/index.js does not list its specs`)
  return (index.default as unknown[])
    .filter((name): name is string => typeof name === 'string' && !name.includes('/') && name !== '-')
    .sort()
}
