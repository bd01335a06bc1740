import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'

/** A process told apart from a later one that reuses its pid. */
export interface ProcessIdentity {
  pid: number
  startTime: string
}

interface ProcessFacts extends ProcessIdentity {
  ppid: number
  argv: string[]
}

/** How far up the tree the agent may be; a real chain is 1-3 steps (hook → sh → agent). */
const MAX_ANCESTORS = 12
/** seed 000's bound for reading the process table, per `ps` call on macOS. */
const PS_TIMEOUT_MS = 500

/**
 * Programs between an agent and the Shellgate process it started, never the agent itself: shells
 * (a hook runs as `sh -c …`, Claude Code's Bash tool in bash), `env`, npm's launchers, and our own
 * `bin/shellgate.js` (it starts the CLI again to seal NODE_EXTRA_CA_CERTS).
 */
const WRAPPER_NAMES = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'env', 'nice', 'timeout', 'npx', 'npm'])
const WRAPPER_SCRIPTS =
  /(?:^|\/)(?:bin\/shellgate(?:\.js)?|out\/main\/cli\.js|src\/main\/cli\.ts|npx-cli\.js|npm-cli\.js)$/

export function isWrapper(argv: readonly string[]): boolean {
  const program = basename(argv[0] ?? '').replace(/^-/, '')
  if (WRAPPER_NAMES.has(program)) return true
  // A node (or tsx) process running one of our entry points or npm's.
  return argv.slice(1, 4).some((arg) => WRAPPER_SCRIPTS.test(arg))
}

/**
 * The agent that started `pid` (an MCP server, a hook, `shellgate exec`): its nearest ancestor that
 * is not a wrapper. Claude Code starts its MCP server directly and a hook through `sh -c`, Codex and
 * Gemini CLI start both directly: either way both find the same agent process. Null when the tree
 * cannot be read or reaches init first.
 */
export async function agentProcessOf(
  pid: number,
  platform: NodeJS.Platform,
): Promise<ProcessIdentity | null> {
  let current = await readProcess(pid, platform)
  for (let step = 0; current && step < MAX_ANCESTORS; step++) {
    if (current.ppid <= 1) return null
    const parent = await readProcess(current.ppid, platform)
    if (!parent) return null
    if (!isWrapper(parent.argv)) return { pid: parent.pid, startTime: parent.startTime }
    current = parent
  }
  return null
}

/** Whether that very process (same pid, same start) still runs. */
export async function isRunning(process: ProcessIdentity, platform: NodeJS.Platform): Promise<boolean> {
  const now = await readProcess(process.pid, platform)
  return now !== null && now.startTime === process.startTime
}

function readProcess(pid: number, platform: NodeJS.Platform): Promise<ProcessFacts | null> {
  if (platform === 'win32') return Promise.resolve(null)
  return platform === 'linux' ? readProcfs(pid) : readPs(pid)
}

async function readProcfs(pid: number): Promise<ProcessFacts | null> {
  try {
    const [stat, cmdline] = await Promise.all([
      readFile(`/proc/${pid}/stat`, 'utf8'),
      readFile(`/proc/${pid}/cmdline`, 'utf8'),
    ])
    // The command name is in parentheses and may itself hold spaces or parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (fields[0] === 'Z') return null
    return {
      pid,
      ppid: Number(fields[1]),
      startTime: fields[19] ?? '',
      argv: cmdline.split('\0').filter(Boolean),
    }
  } catch {
    return null
  }
}

function readPs(pid: number): Promise<ProcessFacts | null> {
  return new Promise((resolve) => {
    execFile(
      'ps',
      ['-o', 'ppid=', '-o', 'lstart=', '-o', 'command=', '-p', String(pid)],
      { timeout: PS_TIMEOUT_MS, env: { LC_ALL: 'C' } },
      (error, stdout) => {
        // lstart is five words: "Tue Dec  1 19:44:31 2026".
        const match = /^\s*(\d+)\s+(\S+\s+\S+\s+\d+\s+[\d:]+\s+\d+)\s+(.*)$/.exec(stdout.trim())
        if (error || !match) return resolve(null)
        resolve({
          pid,
          ppid: Number(match[1]),
          startTime: match[2]!.replace(/\s+/g, ' '),
          argv: match[3]!.split(/\s+/),
        })
      },
    )
  })
}
