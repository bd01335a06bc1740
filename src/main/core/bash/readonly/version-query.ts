import { closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs'
import path from 'node:path'

/**
 * `X --version` and `X --help` (issue 21.5), for any X, decided by what X is rather than by a list
 * of names: the program the shell finds first on PATH must be a compiled binary (ELF or Mach-O,
 * never a script: version managers' shims are scripts that read the project's files) in a system
 * folder only root can write, and not one of the tools that read the project before printing.
 *
 * Decided: these run project code or fetch over the network on --version, so they are refused
 * even where a shorter list accepted them: rustup's proxies (cargo, rustc… honour a
 * rust-toolchain.toml `path = "/any/dir"` and run that dir's binary: checked for real), yarn
 * (a `.yarnrc` yarn-path runs the repository's JavaScript), pnpm/corepack (the packageManager field
 * downloads and runs a release), go (a go.mod toolchain line downloads one), mvn/gradle/sbt (their
 * project JVM options can load an agent), php (a php.ini in the folder loads extensions), dotnet
 * (global.json picks an SDK), terraform (checks for updates over the network). `--help` of git
 * opens a man page or a browser, so git takes `--version` only.
 */
const READS_THE_PROJECT: ReadonlySet<string> = new Set([
  'cargo',
  'rustc',
  'rustup',
  'rustdoc',
  'rustfmt',
  'clippy-driver',
  'cargo-clippy',
  'yarn',
  'yarnpkg',
  'pnpm',
  'pnpx',
  'corepack',
  'go',
  'gofmt',
  'mvn',
  'mvnw',
  'gradle',
  'gradlew',
  'sbt',
  'php',
  'composer',
  'dotnet',
  'terraform',
  'bundle',
  'bundler',
  'poetry',
  'pipenv',
])
const HELP_RUNS_A_VIEWER: ReadonlySet<string> = new Set(['git'])

const SYSTEM_FOLDERS: Readonly<Partial<Record<NodeJS.Platform, readonly string[]>>> = {
  linux: [
    '/usr/bin',
    '/bin',
    '/usr/sbin',
    '/sbin',
    '/usr/local/bin',
    '/usr/local/sbin',
    '/usr/lib',
    '/usr/libexec',
  ],
  darwin: [
    '/usr/bin',
    '/bin',
    '/usr/sbin',
    '/sbin',
    '/usr/local/bin',
    '/opt/homebrew/bin',
    '/opt/homebrew/Cellar',
  ],
}

// Program file magic numbers: ELF, and Mach-O (32/64-bit, both byte orders, universal).
const BINARY_MAGIC = ['7f454c46', 'feedface', 'feedfacf', 'cefaedfe', 'cffaedfe', 'cafebabe']
const GROUP_OR_OTHER_WRITE = 0o022

// Looked up once a second per PATH and name: a file swapped within that second is the same race
// as one swapped between classify and run.
const LOOKUP_TTL_MS = 1_000
const MAX_CACHED = 256
const cache = new Map<string, { answer: string | null; at: number }>()

export type VersionQuery = { readOnly: boolean; reason: string } | undefined

/** Why `X --version`/`X --help` is not read-only because X reads the project first, or null. */
export function findProjectReadingQuery(argv: readonly string[]): string | null {
  const [name, flag] = argv
  if (argv.length !== 2 || name === undefined || (flag !== '--version' && flag !== '--help')) return null
  if (READS_THE_PROJECT.has(name))
    return `${name} ${flag} may run a toolchain or code the project chose first`
  if (flag === '--help' && HELP_RUNS_A_VIEWER.has(name))
    return `${name} --help opens a manual viewer or a browser`
  return null
}

/** The verdict for `X --version` / `X --help`, or undefined when argv is not that form. */
export function evaluateVersionQuery(
  argv: readonly string[],
  platform: NodeJS.Platform,
  searchPath: string | undefined = process.env.PATH,
): VersionQuery {
  const [name, flag] = argv
  if (argv.length !== 2 || name === undefined || (flag !== '--version' && flag !== '--help')) return undefined
  if (name.includes('/') || name.includes('\\')) return undefined
  const projectReading = findProjectReadingQuery(argv)
  if (projectReading) return { readOnly: false, reason: projectReading }
  const problem = lookUp(name, platform, searchPath ?? '')
  return problem === null
    ? { readOnly: true, reason: `${name} ${flag} only prints (a system binary)` }
    : { readOnly: false, reason: `${name} ${flag}: ${problem}` }
}

function lookUp(name: string, platform: NodeJS.Platform, searchPath: string): string | null {
  const key = `${platform}\0${searchPath}\0${name}`
  const now = Date.now()
  const cached = cache.get(key)
  if (cached && now - cached.at < LOOKUP_TTL_MS) return cached.answer
  const answer = judgeProgram(name, platform, searchPath)
  if (cache.size >= MAX_CACHED) cache.clear()
  cache.set(key, { answer, at: now })
  return answer
}

/** Why the program PATH finds for `name` is not known to only print, or null. */
function judgeProgram(name: string, platform: NodeJS.Platform, searchPath: string): string | null {
  const folders = SYSTEM_FOLDERS[platform]
  if (!folders) return `no system folders are known on ${platform}`
  for (const dir of searchPath.split(':')) {
    // An empty or relative entry is the folder the command runs in: the repository's own file.
    if (!dir.startsWith('/')) return `PATH holds ${JSON.stringify(dir)}, looked up from the folder it runs in`
    const file = path.join(dir, name)
    const stats = statSync(file, { throwIfNoEntry: false })
    if (!stats?.isFile() || (stats.mode & 0o111) === 0) continue
    const real = safeRealpath(file)
    if (real === null || !folders.some((folder) => real.startsWith(`${folder}/`)))
      return `${file} is not in a system folder, so it may be any program`
    const target = statSync(real)
    if (target.uid !== 0 || (target.mode & GROUP_OR_OTHER_WRITE) !== 0)
      return `${real} may be changed by users other than root`
    return isCompiledProgram(real) ? null : `${real} is a script, which may read the project's files first`
  }
  return `${name} is not on PATH`
}

function isCompiledProgram(file: string): boolean {
  const head = Buffer.alloc(4)
  let fd: number | null = null
  try {
    fd = openSync(file, 'r')
    readSync(fd, head, 0, 4, 0)
  } catch {
    return false
  } finally {
    if (fd !== null) closeSync(fd)
  }
  return BINARY_MAGIC.includes(head.toString('hex'))
}

function safeRealpath(file: string): string | null {
  try {
    return realpathSync(file)
  } catch {
    return null
  }
}
