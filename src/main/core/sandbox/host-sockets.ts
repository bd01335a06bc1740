import { readFileSync } from 'node:fs'

/**
 * Paths of the host's listening Unix sockets, from /proc/net/unix: every socket bound by any
 * process in this network namespace, wherever it lives, for one read. The folder scan finds the
 * ones in the person's folders; this finds the ones in system folders and toolchains that no scan
 * reads (a database under /opt, an agent under a toolchain). Abstract sockets (`@…`) have no path:
 * the sandbox's own network namespace cuts them off.
 */
export function listeningSocketPaths(table = '/proc/net/unix'): string[] {
  let text: string
  try {
    text = readFileSync(table, 'utf8')
  } catch {
    return []
  }
  const paths = new Set<string>()
  for (const line of text.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/)
    const path = fields.slice(7).join(' ')
    if (path.startsWith('/')) paths.add(path)
  }
  return [...paths]
}
