import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

// A generated command that hangs (a tool reading a terminal) is stopped after this long.
const RUN_TIMEOUT_MS = 10_000

export interface TracedRun {
  /** Every file name the tool tried to open (openat/open), as written in the call, opened or not. */
  opened: string[]
  /** Every program started after the tool itself (execve). */
  executed: string[]
  status: number | null
}

/**
 * Run `argv` for real in `cwd` under strace (every process, open/openat/execve), stdin from
 * /dev/null, HOME at the folder, and report what it tried to open and what else it ran: the
 * ground truth the verdict's judged files are compared with.
 */
export function traceRun(
  argv: readonly string[],
  cwd: string,
  extraEnv: Readonly<Record<string, string>> = {},
): Promise<TracedRun> {
  const log = join(cwd, '.strace.log')
  return new Promise((resolve, reject) => {
    const child = spawn('strace', ['-f', '-qq', '-e', 'trace=open,openat,execve', '-o', log, '--', ...argv], {
      cwd,
      stdio: ['ignore', 'ignore', 'ignore'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, LC_ALL: 'C', ...extraEnv },
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS)
    child.on('error', reject)
    child.on('close', (status) => {
      clearTimeout(timer)
      resolve({ ...readTrace(readFileSync(log, 'utf8')), status })
    })
  })
}

const OPEN_CALL = /\b(?:open|openat)\((?:AT_FDCWD|\d+), "((?:[^"\\]|\\.)*)"|\bopen\("((?:[^"\\]|\\.)*)"/
const EXEC_CALL = /\bexecve\("((?:[^"\\]|\\.)*)"/

function readTrace(text: string): Omit<TracedRun, 'status'> {
  const opened: string[] = []
  const executed: string[] = []
  for (const line of text.split('\n')) {
    const open = OPEN_CALL.exec(line)
    if (open) opened.push(straceString(open[1] ?? open[2] ?? ''))
    const exec = EXEC_CALL.exec(line)
    // PATH lookups try each folder; only the call that started a program counts.
    if (exec && / = 0$/.test(line)) executed.push(straceString(exec[1] as string))
  }
  // The first execve is the tool itself.
  return { opened, executed: executed.slice(1) }
}

function straceString(text: string): string {
  return text.replace(/\\(.)/g, '$1')
}
