import { basename, dirname, isAbsolute, join, normalize } from 'node:path'
import { isInside, kindOf, realOrNull } from './host-paths'
import type { LayoutEntry } from './layout-types'

/**
 * Version managers and toolchains in the home folder, by the folder a PATH entry of theirs lives
 * in, and what must be readable for the binaries on that entry to run: a rustup proxy in
 * ~/.cargo/bin needs ~/.rustup's toolchains, a pyenv shim needs pyenv itself, an nvm node its
 * lib/node_modules. Paths relative to the home folder.
 */
const HOME_TOOLCHAINS: readonly { under: string; roots: string[]; name: string }[] = [
  { under: '.cargo/bin', roots: ['.cargo/bin', '.rustup'], name: 'Rust (rustup, cargo)' },
  { under: '.rustup', roots: ['.rustup'], name: 'Rust (rustup)' },
  { under: '.pyenv', roots: ['.pyenv'], name: 'pyenv' },
  { under: '.nvm', roots: ['.nvm'], name: 'nvm' },
  { under: '.fnm', roots: ['.fnm'], name: 'fnm' },
  { under: '.local/share/fnm', roots: ['.local/share/fnm'], name: 'fnm' },
  { under: '.volta', roots: ['.volta'], name: 'Volta' },
  { under: '.asdf', roots: ['.asdf'], name: 'asdf' },
  { under: '.local/share/mise', roots: ['.local/share/mise'], name: 'mise' },
  { under: '.local/share/pnpm', roots: ['.local/share/pnpm'], name: 'pnpm' },
  { under: '.local/bin', roots: ['.local/bin', '.local/lib'], name: 'pip --user and pipx' },
  { under: '.linuxbrew', roots: ['.linuxbrew'], name: 'Linuxbrew' },
  { under: '.bun', roots: ['.bun'], name: 'Bun' },
  { under: '.deno', roots: ['.deno'], name: 'Deno' },
  { under: '.sdkman', roots: ['.sdkman'], name: 'SDKMAN!' },
  { under: '.npm-global', roots: ['.npm-global'], name: 'npm global prefix' },
  { under: '.yarn/bin', roots: ['.yarn/bin'], name: 'Yarn global binaries' },
  { under: 'go/bin', roots: ['go/bin'], name: 'Go binaries (GOPATH)' },
  { under: '.go', roots: ['.go'], name: 'Go' },
  { under: 'sdk', roots: ['sdk'], name: 'Go toolchains (golang.org/dl)' },
  { under: '.nix-profile', roots: ['.nix-profile'], name: 'Nix profile' },
]

export interface ToolchainPlan {
  readable: LayoutEntry[]
  /** PATH entries not mounted, with why (for `sandbox explain`). */
  skipped: LayoutEntry[]
}

/**
 * The toolchains a command needs, found where they are: every PATH entry the command gets
 * (issue 19: "the PATH the command gets is a good source") that is not already readable. An
 * entry under a known version manager brings that manager's folder; an install prefix
 * (`<prefix>/bin`) brings the prefix; anything else, the entry alone. Never the home folder, an
 * ancestor of it, `/`, or SHELLGATE_HOME: PATH is the person's, and may name any of them.
 */
export function toolchainRoots(
  searchPath: string,
  options: { home: string; dataDir: string; covered: (path: string) => boolean },
): ToolchainPlan {
  const { home } = options
  const readable: LayoutEntry[] = []
  const skipped: LayoutEntry[] = []
  const seen = new Set<string>()
  const add = (path: string, why: string) => {
    if (seen.has(path)) return
    seen.add(path)
    const real = realOrNull(path)
    if (!real || kindOf(real) !== 'dir') return
    if (isInside(home, real) || isInside(home, path)) {
      skipped.push({ path, kind: 'dir', why: `${why}: it holds the home folder, which stays empty` })
      return
    }
    if (isInside(real, options.dataDir) || isInside(path, options.dataDir)) {
      skipped.push({ path, kind: 'dir', why: `${why}: it is inside SHELLGATE_HOME` })
      return
    }
    if (options.covered(path) && options.covered(real)) return
    readable.push({ path, ...(real !== path ? { source: real } : {}), kind: 'dir', why })
    // A binary may look itself up by its real path (node finds its lib/ that way).
    if (real !== path && !options.covered(real)) readable.push({ path: real, kind: 'dir', why })
  }
  for (const raw of searchPath.split(':')) {
    if (raw === '' || !isAbsolute(raw)) continue
    const entry = normalize(raw).replace(/(.)\/+$/, '$1')
    if (kindOf(entry) === null || options.covered(entry)) continue
    const why = `toolchain on PATH (${entry})`
    if (isInside(entry, home) && entry !== home) {
      const relative = entry.slice(home.length + 1)
      const known = HOME_TOOLCHAINS.find((tool) => isInside(relative, tool.under))
      if (known) {
        for (const root of known.roots) add(join(home, root), `${known.name}: ${why}`)
        continue
      }
    }
    add(installPrefix(entry, home) ?? entry, why)
  }
  return { readable, skipped }
}

/** `<prefix>/bin` means an installed tree whose lib/ and share/ its binaries load; not `~/bin`'s parent. */
function installPrefix(entry: string, home: string): string | null {
  if (basename(entry) !== 'bin') return null
  const prefix = dirname(entry)
  if (prefix === '/' || isInside(home, prefix)) return null
  return prefix
}
