import { readdir, readFile, readlink } from 'node:fs/promises'

/**
 * The TCP ports this process listens on (Linux): the LISTEN rows of /proc/self/net/tcp{,6}, whose
 * socket inodes are among this process's open files. Whatever Shellgate serves from this process
 * (the browser-mode page, any later server) is found this way without being registered. Empty on
 * other platforms, where callers rely on the ports they were told about.
 */
export async function ownListeningPorts(platform: NodeJS.Platform): Promise<Set<number>> {
  if (platform !== 'linux') return new Set()
  const listening = new Map<string, number>()
  for (const table of ['/proc/self/net/tcp', '/proc/self/net/tcp6']) {
    const text = await readFile(table, 'utf8').catch(() => '')
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      if (fields[3] !== '0A' || !fields[1] || !fields[9]) continue
      listening.set(fields[9], Number.parseInt(fields[1].split(':')[1] ?? '', 16))
    }
  }
  const ports = new Set<number>()
  if (listening.size === 0) return ports
  const fds = await readdir('/proc/self/fd').catch(() => [] as string[])
  await Promise.all(
    fds.map(async (fd) => {
      const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '')
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1]
      const port = inode ? listening.get(inode) : undefined
      if (port !== undefined) ports.add(port)
    }),
  )
  return ports
}
