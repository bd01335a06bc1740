import { win32 } from 'node:path'
import { systemRoot } from './kill-tree.win32'
import type { ProbeCommandRunner } from './resource-probe-types'
import { type GroupUsage, parseTasklistCsv, parseWin32ProcessCsv } from './resource-probe.parse'
import { sumWindowsRunUsage } from './windows-run-usage'

/**
 * Time kept back for the single-process tasklist sample when a tree tool hangs, so a slow WMI
 * still gives a (partial) sample within the 1 s rather than a failure.
 */
export const TASKLIST_RESERVE_MS = 250

const COLUMNS = 'ProcessId,ParentProcessId,WorkingSetSize,KernelModeTime,UserModeTime,CreationDate'

/**
 * No double quotes: Node quotes each argument for CreateProcess and powershell.exe re-splits
 * `-Command` text with rules of its own, so embedded quotes would not survive. (-EncodedCommand
 * would, but endpoint protection flags it as a malware habit.) CreationDate goes out as a FILETIME
 * number because a DateTime would be formatted in the user's culture.
 */
const POWERSHELL_PROCESS_SCRIPT =
  'Get-CimInstance -ClassName Win32_Process | Select-Object ProcessId,ParentProcessId,' +
  'WorkingSetSize,KernelModeTime,UserModeTime,' +
  "@{Name='CreationDate';Expression={if ($_.CreationDate) {$_.CreationDate.ToFileTimeUtc()}}}" +
  ' | ConvertTo-Csv -NoTypeInformation'

export interface WindowsProbeOptions {
  env: Record<string, string | undefined>
  run: ProbeCommandRunner
  known: Map<number, string>
  budgetMs: number
  now: () => number
}

/**
 * The process tree of the run rooted at `rootPid` (see sumWindowsRunUsage), from one listing of
 * every process: WMIC first, because it starts in a fraction of PowerShell's time; PowerShell's
 * Get-CimInstance when WMIC gives no table (removed from newest Windows 11: ENOENT; or its CSV
 * stylesheet missing for the user's locale). Both read the same WMI class. When neither answers
 * in time, tasklist samples the root alone and the sample says `partial`. Every tool comes from
 * the host's SystemRoot: a WMIC.exe or powershell.exe in the workspace must never run. (Their
 * env needs no SystemRoot from us: libuv copies it and the other required Windows variables
 * into every child env.) All of it fits in `budgetMs`.
 */
export async function probeWindowsRun(
  rootPid: number,
  options: WindowsProbeOptions,
): Promise<GroupUsage | null> {
  const { run, now } = options
  const deadline = now() + options.budgetMs
  const root = systemRoot(options.env)
  const treeTools: [string, string[]][] = [
    [win32.join(root, 'System32', 'wbem', 'WMIC.exe'), ['process', 'get', COLUMNS, '/format:csv']],
    [
      win32.join(root, 'System32', 'WindowsPowerShell', 'v1.0', 'powershell.exe'),
      ['-NoProfile', '-NonInteractive', '-Command', POWERSHELL_PROCESS_SCRIPT],
    ],
  ]
  for (const [file, args] of treeTools) {
    const timeoutMs = deadline - now() - TASKLIST_RESERVE_MS
    if (timeoutMs <= 0) break
    const rows = await run(file, args, timeoutMs).then(parseWin32ProcessCsv, () => null)
    if (rows) return sumWindowsRunUsage(rows, rootPid, options.known)
  }
  // An execFile timeout of 0 would mean none at all.
  const timeoutMs = deadline - now()
  if (timeoutMs <= 0) return null
  const tasklist = win32.join(root, 'System32', 'tasklist.exe')
  const usage = parseTasklistCsv(
    await run(tasklist, ['/FI', `PID eq ${rootPid}`, '/FO', 'CSV', '/NH', '/V'], timeoutMs),
  )
  // One process of a tree that may have more: what the others use is missing.
  return usage && { ...usage, processes: 1, partial: true }
}
