import { execFile } from 'node:child_process'
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { netNamespaceOf } from './task-processes'

/** A TCP socket a task's process listens on, and where: the process and its network namespace. */
export interface ListeningSocket {
  port: number
  pid: number
  /** Its network namespace; null where the platform has none to tell (macOS). */
  namespace: string | null
}

const TCP_LISTEN = '0A'

/**
 * Which TCP ports the given processes listen on. Linux, from the host and without connecting (a
 * server in the sandbox's own network namespace cannot be reached from here anyway): the socket
 * inodes each process holds (/proc/PID/fd), matched against the listening sockets of its own
 * namespace (/proc/PID/net/tcp and tcp6, which show that namespace only). A port some other
 * program listens on is never the task's. macOS asks lsof for the same pids; Windows has no probe.
 */
export async function listeningSockets(
  pids: number[],
  platform: NodeJS.Platform,
): Promise<ListeningSocket[]> {
  if (pids.length === 0) return []
  if (platform === 'linux') return linuxListening(pids)
  if (platform === 'darwin') return lsofListening(pids)
  return []
}

function linuxListening(pids: number[]): ListeningSocket[] {
  const owners = new Map<string, number>()
  for (const pid of pids) for (const inode of socketInodes(pid)) owners.set(inode, pid)
  if (owners.size === 0) return []
  const found = new Map<number, ListeningSocket>()
  const tablesRead = new Set<string>()
  for (const pid of new Set(owners.values())) {
    const namespace = netNamespaceOf(pid)
    if (namespace === null || tablesRead.has(namespace)) continue
    tablesRead.add(namespace)
    for (const table of ['tcp', 'tcp6']) {
      for (const row of listenRows(pid, table)) {
        const owner = owners.get(row.inode)
        if (owner !== undefined && !found.has(row.port))
          found.set(row.port, { port: row.port, pid: owner, namespace })
      }
    }
  }
  return [...found.values()].sort((a, b) => a.port - b.port)
}

function socketInodes(pid: number): string[] {
  let names: string[]
  try {
    names = readdirSync(`/proc/${pid}/fd`)
  } catch {
    return []
  }
  const inodes: string[] = []
  for (const name of names) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${name}`))
      if (match) inodes.push(match[1]!)
    } catch {}
  }
  return inodes
}

/** Rows of /proc/PID/net/tcp[6] in the LISTEN state: `sl local rem st … uid timeout inode`. */
export function parseListenRows(text: string): Array<{ port: number; inode: string }> {
  const rows: Array<{ port: number; inode: string }> = []
  for (const line of text.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/)
    if (fields.length < 10 || fields[3] !== TCP_LISTEN) continue
    const port = Number.parseInt(fields[1]!.split(':')[1] ?? '', 16)
    if (Number.isInteger(port) && port > 0) rows.push({ port, inode: fields[9]! })
  }
  return rows
}

function listenRows(pid: number, table: string) {
  try {
    return parseListenRows(readFileSync(`/proc/${pid}/net/${table}`, 'utf8'))
  } catch {
    return []
  }
}

function lsofListening(pids: number[]): Promise<ListeningSocket[]> {
  return new Promise((resolve) => {
    execFile(
      'lsof',
      ['-nP', '-a', '-p', pids.join(','), '-iTCP', '-sTCP:LISTEN', '-Fpn'],
      { timeout: 2_000, env: { LC_ALL: 'C', PATH: '/usr/sbin:/usr/bin:/bin' } },
      (_error, stdout) => resolve(parseLsofListening(String(stdout))),
    )
  })
}

/** lsof -F output: `p<pid>` then `n<address>:<port>` lines. */
export function parseLsofListening(text: string): ListeningSocket[] {
  const found = new Map<number, ListeningSocket>()
  let pid = 0
  for (const line of text.split('\n')) {
    if (line.startsWith('p')) pid = Number(line.slice(1))
    const port = line.startsWith('n') ? Number(/:(\d+)$/.exec(line)?.[1]) : Number.NaN
    if (pid > 0 && Number.isInteger(port) && port > 0 && !found.has(port)) {
      found.set(port, { port, pid, namespace: null })
    }
  }
  return [...found.values()].sort((a, b) => a.port - b.port)
}
