import { lstatSync, readlinkSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { SYSTEM_CONFIG_WITH_CREDENTIALS, SYSTEM_SECRETS } from '../secrets/system-secrets'
import { configHoldsCredential } from './config-credentials'
import { isInside, kindOf, readText, realOrNull, safeReaddir } from './host-paths'
import type { LayoutEntry } from './layout-types'
import type { SymlinkPath } from './types'

/**
 * What programs need of the system, and nothing else of it: binaries and libraries, /opt, and
 * /etc for passwd, hosts, certificates and the resolver. Not /home (other people), /root, /run and
 * /var/run (the host's sockets), /var, /srv, /mnt, /media, /sys, /boot.
 */
const LINUX_SYSTEM = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/opt',
  '/etc',
  '/nix',
  '/snap',
]
/**
 * macOS: the same, in its layout. Seatbelt checks resolved paths, so /etc is /private/etc. Of
 * /Library only what compilers and runtimes load (the rest holds the system keychain and other
 * programs' data).
 */
const DARWIN_SYSTEM = [
  '/usr',
  '/bin',
  '/sbin',
  '/System',
  '/Library/Developer',
  '/Library/Frameworks',
  '/Library/Apple',
  '/Library/Java',
  '/Applications/Xcode.app',
  '/private/etc',
  '/private/var/db/timezone',
  '/private/var/select',
  '/opt',
]

export interface SystemLayout {
  readable: LayoutEntry[]
  symlinks: SymlinkPath[]
  /** The system's secrets inside what is readable (SYSTEM_SECRETS), and config files with a credential. */
  hidden: LayoutEntry[]
}

let cached: { platform: NodeJS.Platform; signature: string; layout: SystemLayout } | null = null

/**
 * The system part of every sandbox. It changes only when /etc or a folder holding a system secret
 * does, so it is kept with a signature of those folders' and files' change times and made again
 * when the signature differs (one lstat each, instead of a read of /etc).
 */
export function systemLayout(platform: NodeJS.Platform): SystemLayout {
  const signature = systemSignature(platform)
  if (cached?.platform === platform && cached.signature === signature) return cached.layout
  const layout = buildSystemLayout(platform)
  cached = { platform, signature, layout }
  return layout
}

function systemSignature(platform: NodeJS.Platform): string {
  const tops = platform === 'darwin' ? DARWIN_SYSTEM : LINUX_SYSTEM
  const watched = new Set<string>([...tops, '/etc', ...SYSTEM_CONFIG_WITH_CREDENTIALS])
  for (const secret of SYSTEM_SECRETS) watched.add(secret.names ? secret.path : dirname(secret.path))
  return [...watched]
    .map((path) => {
      const stats = lstatSync(path, { throwIfNoEntry: false })
      return stats ? `${stats.ino}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.size}` : '-'
    })
    .join('|')
}

function buildSystemLayout(platform: NodeJS.Platform): SystemLayout {
  const tops = platform === 'darwin' ? DARWIN_SYSTEM : LINUX_SYSTEM
  const readable: LayoutEntry[] = []
  const symlinks: SymlinkPath[] = []
  for (const top of tops) {
    const kind = kindOf(top)
    if (kind === 'link' && platform !== 'darwin') {
      // Merged /usr: /bin is `usr/bin`. The link is made as the host has it; what it points at is
      // mounted by its own entry, or here when it leads somewhere else.
      symlinks.push({ path: top, target: readlinkSync(top) })
      const real = realOrNull(top)
      if (real && !tops.some((other) => isInside(real, other) && kindOf(other) === 'dir')) {
        readable.push({ path: real, kind: 'dir', why: `system folder (${top} leads here)` })
      }
    } else if (kind === 'dir') readable.push({ path: top, kind: 'dir', why: 'system folder' })
  }
  if (platform !== 'darwin') readable.push(...etcLinksLeadingOut(tops))
  return { readable, symlinks, hidden: systemSecrets(readable) }
}

/**
 * /etc/resolv.conf is often a link into /run (systemd-resolved, NetworkManager); /run is not
 * mounted, so the regular file a link of /etc leads to is, on its own.
 */
function etcLinksLeadingOut(tops: string[]): LayoutEntry[] {
  const entries: LayoutEntry[] = []
  for (const name of safeReaddir('/etc')) {
    const path = join('/etc', name)
    if (kindOf(path) !== 'link') continue
    const real = realOrNull(path)
    if (!real || kindOf(real) !== 'file' || real.startsWith('/proc/')) continue
    if (tops.some((top) => isInside(real, top))) continue
    entries.push({ path: real, kind: 'file', why: `system file (${path} leads here)` })
  }
  return entries
}

function systemSecrets(readable: LayoutEntry[]): LayoutEntry[] {
  const inside = (path: string) => readable.some((entry) => isInside(path, entry.path))
  const hidden: LayoutEntry[] = []
  for (const secret of SYSTEM_SECRETS) {
    if (!inside(secret.path)) continue
    if (secret.names) {
      for (const name of safeReaddir(secret.path)) {
        const path = join(secret.path, name)
        if (secret.names.test(name) && kindOf(path) === 'file') {
          hidden.push({ path, kind: 'file', why: `system secret: ${secret.why}` })
        }
      }
      continue
    }
    const kind = kindOf(secret.path)
    if (kind === 'dir' || kind === 'file') {
      hidden.push({ path: secret.path, kind, why: `system secret: ${secret.why}` })
    }
  }
  for (const path of SYSTEM_CONFIG_WITH_CREDENTIALS) {
    if (!inside(path) || kindOf(path) !== 'file') continue
    const key = configHoldsCredential(readText(path), basename(path) === 'gitconfig' ? 'git' : 'ini')
    if (key) hidden.push({ path, kind: 'file', readsEmpty: true, why: `holds a credential (${key})` })
  }
  return hidden
}
