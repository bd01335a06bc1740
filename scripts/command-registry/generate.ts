import { readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildRegistry, FIG_PACKAGE } from './build-registry'

// `tsx scripts/command-registry/generate.ts [--check] [--file PATH]`
// Regenerates resources/command-registry.json from the pinned Fig package. With --check nothing is
// written: the registry is rebuilt in memory and compared byte for byte with the file.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

async function main(argv: string[]): Promise<number> {
  const check = argv.includes('--check')
  const fileFlag = argv.indexOf('--file')
  const target =
    fileFlag === -1 ? join(repoRoot, 'resources', 'command-registry.json') : resolve(argv[fileFlag + 1] ?? '')
  const unknown = argv.filter((arg, i) => arg !== '--check' && arg !== '--file' && argv[i - 1] !== '--file')
  if (unknown.length > 0 || (fileFlag !== -1 && !argv[fileFlag + 1])) {
    process.stderr.write(`registry: usage: generate.ts [--check] [--file PATH] (got ${argv.join(' ')})\n`)
    return 2
  }
  const fresh = Buffer.from(await buildRegistry(join(repoRoot, 'node_modules', FIG_PACKAGE)))
  if (check) {
    const committed = await readFile(target).catch(() => null)
    if (committed === null) {
      process.stderr.write(`registry: ${target} is missing; run npm run registry:generate\n`)
      return 1
    }
    const at = firstDifference(committed, fresh)
    if (at !== -1) {
      process.stderr.write(
        `registry: ${target} differs from a fresh build at byte ${at}; run npm run registry:generate\n`,
      )
      return 1
    }
    process.stdout.write(`registry: ${target} is up to date (${fresh.length} bytes)\n`)
    return 0
  }
  // Atomic: a reader never sees half a registry.
  const temporary = `${target}.${process.pid}.tmp`
  await writeFile(temporary, fresh)
  await rename(temporary, target)
  process.stdout.write(`registry: wrote ${target} (${fresh.length} bytes)\n`)
  return 0
}

function firstDifference(a: Buffer, b: Buffer): number {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i += 1) if (a[i] !== b[i]) return i
  return a.length === b.length ? -1 : length
}

process.exitCode = await main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`registry: ${error instanceof Error ? error.message : String(error)}\n`)
  return 1
})
