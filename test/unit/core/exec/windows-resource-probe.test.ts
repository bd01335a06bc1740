import { describe, expect, it } from 'vitest'
import { probeProcessGroup } from '../../../../src/main/core/exec'
import {
  parseTasklistCsv,
  parseWin32ProcessCsv,
  parseWindowsCreationDate,
  type Win32ProcessRow,
} from '../../../../src/main/core/exec/resource-probe.parse'
import { sumWindowsRunUsage } from '../../../../src/main/core/exec/windows-run-usage'

// Issue 15.7 on Windows, through the platform parameter: the probe follows the run's process tree.
// The run: bash.exe 4000 (started by Shellgate's node.exe 3000) → node.exe 4100 → git.exe 4200.
// 4300 names 4000 as its parent but was created hours before it: its real parent died and 4000
// got that pid later (Windows reuses pids and never rewrites ParentProcessId).

const WMIC = 'D:\\Win\\System32\\wbem\\WMIC.exe'
const WMIC_ARGS = [
  'process',
  'get',
  'ProcessId,ParentProcessId,WorkingSetSize,KernelModeTime,UserModeTime,CreationDate',
  '/format:csv',
]
const POWERSHELL = 'D:\\Win\\System32\\WindowsPowerShell\\v1.0\\powershell.exe'
/**
 * Written out, not imported: the script is part of the call. No double quotes (powershell.exe
 * re-splits -Command text), and CreationDate as a FILETIME, not a culture-formatted date.
 */
const POWERSHELL_ARGS = [
  '-NoProfile',
  '-NonInteractive',
  '-Command',
  'Get-CimInstance -ClassName Win32_Process | Select-Object ProcessId,ParentProcessId,WorkingSetSize,' +
    "KernelModeTime,UserModeTime,@{Name='CreationDate';Expression={if ($_.CreationDate) " +
    '{$_.CreationDate.ToFileTimeUtc()}}} | ConvertTo-Csv -NoTypeInformation',
]
const TASKLIST = 'D:\\Win\\System32\\tasklist.exe'
const TASKLIST_ARGS = ['/FI', 'PID eq 4000', '/FO', 'CSV', '/NH', '/V']
const ENV = { SystemRoot: 'D:\\Win' }

/** WMIC writes `\r\r\n`, starts with an empty line, sorts columns by name after `Node`. */
const WMIC_OUTPUT = [
  '',
  'Node,CreationDate,KernelModeTime,ParentProcessId,ProcessId,UserModeTime,WorkingSetSize',
  'BUILD-PC,,29062500000,0,0,0,8192',
  'BUILD-PC,20261201081502.500000+060,1562500,0,4,0,143360',
  'BUILD-PC,20261201122955.000000+060,50000000,2900,3000,90000000,209715200',
  'BUILD-PC,20261201123000.000000+060,1500000,3000,4000,3000000,10485760',
  'BUILD-PC,20261201123005.250000+060,2500000,4000,4100,7500000,52428800',
  'BUILD-PC,20261201123006.000000+060,0,4100,4200,100000,4194304',
  'BUILD-PC,20261201090000.000000+060,90000000000,4000,4300,90000000000,999999999',
  'BUILD-PC,20261201091000.000000+060,1000,812,5000,2000,3000',
  '',
].join('\r\r\n')

/** ConvertTo-Csv: every field quoted, CRLF, the selected column order, CreationDate a FILETIME. */
const POWERSHELL_OUTPUT = [
  '"ProcessId","ParentProcessId","WorkingSetSize","KernelModeTime","UserModeTime","CreationDate"',
  '"0","0","8192","29062500000","0",""',
  '"4","0","143360","1562500","0","134405829025000000"',
  '"3000","2900","209715200","50000000","90000000","134405981950000000"',
  '"4000","3000","10485760","1500000","3000000","134405982000000000"',
  '"4100","4000","52428800","2500000","7500000","134405982052500000"',
  '"4200","4100","4194304","0","100000","134405982060000000"',
  '"4300","4000","999999999","90000000000","90000000000","134405856000000000"',
  '',
].join('\r\n')

/** bash.exe 10 MiB + node.exe 50 MiB + git.exe 4 MiB; (1.5 + 3 + 2.5 + 7.5 + 0.1) M × 100 ns. */
const RUN_USAGE = { rssBytes: 64 * 1024 * 1024, cpuMs: 1_460, processes: 3, partial: false }

const at = (iso: string) => Date.parse(iso) * 1000

function enoent(file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`spawn ${file} ENOENT`), {
    code: 'ENOENT',
    errno: -4058,
    syscall: `spawn ${file}`,
    path: file,
  })
}

/** Records every call exactly; each tool answers after `tookMs` of the fake clock. */
function recordingRunner(answers: Record<string, { tookMs: number; answer: string | Error }>) {
  let clock = 5_000
  const calls: [string, string[], number][] = []
  const run = async (file: string, args: string[], timeoutMs: number) => {
    calls.push([file, args, timeoutMs])
    const { tookMs, answer } = answers[file] ?? { tookMs: 0, answer: new Error(`unexpected ${file}`) }
    clock += tookMs
    if (answer instanceof Error) throw answer
    return answer
  }
  return { calls, run, now: () => clock }
}

describe('Win32_Process CSV, as WMIC and PowerShell print it', () => {
  const runRows: Win32ProcessRow[] = [
    { pid: 0, parentPid: 0, workingSetBytes: 8192, cpuMs: 2_906_250, createdMicros: null },
    {
      pid: 4,
      parentPid: 0,
      workingSetBytes: 143_360,
      cpuMs: 156.25,
      createdMicros: at('2026-12-01T07:15:02.5Z'),
    },
    {
      pid: 3000,
      parentPid: 2900,
      workingSetBytes: 209_715_200,
      cpuMs: 14_000,
      createdMicros: at('2026-12-01T11:29:55Z'),
    },
    {
      pid: 4000,
      parentPid: 3000,
      workingSetBytes: 10_485_760,
      cpuMs: 450,
      createdMicros: at('2026-12-01T11:30:00Z'),
    },
    {
      pid: 4100,
      parentPid: 4000,
      workingSetBytes: 52_428_800,
      cpuMs: 1_000,
      createdMicros: at('2026-12-01T11:30:05.25Z'),
    },
    {
      pid: 4200,
      parentPid: 4100,
      workingSetBytes: 4_194_304,
      cpuMs: 10,
      createdMicros: at('2026-12-01T11:30:06Z'),
    },
    {
      pid: 4300,
      parentPid: 4000,
      workingSetBytes: 999_999_999,
      cpuMs: 18_000_000,
      createdMicros: at('2026-12-01T08:00:00Z'),
    },
  ]
  const utf16AsUtf8 = Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from(WMIC_OUTPUT, 'utf16le'),
  ]).toString('utf8')

  it.each([
    [
      'WMIC /format:csv (\\r\\r\\n, leading blank line, Node column)',
      WMIC_OUTPUT,
      [...runRows, wmicRow5000()],
    ],
    ['PowerShell ConvertTo-Csv (quoted, CRLF, FILETIME dates)', POWERSHELL_OUTPUT, runRows],
    ['WMIC redirected as UTF-16LE with a BOM, decoded as UTF-8', utf16AsUtf8, [...runRows, wmicRow5000()]],
    [
      'LF only, blank lines between rows',
      WMIC_OUTPUT.replace(/\r/g, '').replace(/\n/g, '\n\n'),
      [...runRows, wmicRow5000()],
    ],
    [
      'extra quoted columns with commas and doubled quotes, columns in any order',
      '"Name","CreationDate","ProcessId","UserModeTime","KernelModeTime","WorkingSetSize","ParentProcessId"\r\n' +
        '"a ""b"", c.exe","134405982000000000","4000","3000000","1500000","10485760","3000"\r\n',
      [runRows[3]],
    ],
    [
      'rows with a missing pid, the wrong cell count, or empty usage',
      'Node,CreationDate,KernelModeTime,ParentProcessId,ProcessId,UserModeTime,WorkingSetSize\r\n' +
        'PC,20261201123000.000000+060,1,1,,1,1\r\n' +
        'PC,20261201123000.000000+060,1,1,7\r\n' +
        'PC,not-a-date,,3000,4000,,\r\n',
      [{ pid: 4000, parentPid: 3000, workingSetBytes: null, cpuMs: null, createdMicros: null }],
    ],
  ])('%s', (_name, text, rows) => {
    expect(parseWin32ProcessCsv(text)).toEqual(rows)
  })

  it.each([
    ['WMIC without its stylesheet', 'Invalid XSL format (or) file name.\r\n'],
    ['WMIC with no WMI', 'ERROR:\r\nDescription = Invalid class\r\n'],
    ['nothing at all', ''],
    [
      'a header missing CreationDate',
      'Node,KernelModeTime,ParentProcessId,ProcessId,UserModeTime,WorkingSetSize\r\n',
    ],
  ])('no table: %s', (_name, text) => {
    expect(parseWin32ProcessCsv(text)).toBeNull()
  })

  it.each([
    ['DMTF east of UTC', '20261201123000.000000+060', at('2026-12-01T11:30:00Z')],
    ['DMTF west of UTC, with µs', '20261201063000.123456-300', at('2026-12-01T11:30:00Z') + 123_456],
    ['FILETIME', '134405982052500000', at('2026-12-01T11:30:05.25Z')],
    ['FILETIME 0 (never set)', '0', null],
    ['empty', '', null],
    ['a culture-formatted date', '12/1/2026 11:30:00 AM', null],
  ])('creation date: %s', (_name, text, micros) => {
    expect(parseWindowsCreationDate(text)).toBe(micros)
  })

  function wmicRow5000(): Win32ProcessRow {
    return {
      pid: 5000,
      parentPid: 812,
      workingSetBytes: 3000,
      cpuMs: 0.3,
      createdMicros: at('2026-12-01T08:10:00Z'),
    }
  }
})

describe('the run tree is summed without strangers (issue 15.7, Windows)', () => {
  const rows = parseWin32ProcessCsv(WMIC_OUTPUT)!

  it('counts the root and its descendants, not a process created before the pid it names as parent', () => {
    const known = new Map<number, string>()
    expect(sumWindowsRunUsage(rows, 4000, known)).toEqual(RUN_USAGE)
    expect([...known.keys()]).toEqual([4000, 4100, 4200])
  })

  it('keeps counting a known process whose parent died, and what it starts afterwards', () => {
    const known = new Map<number, string>()
    sumWindowsRunUsage(rows, 4000, known)
    // node.exe 4100 exited; git.exe 4200 still names it as parent and started ssh.exe 4400.
    // A stranger created later got pid 4100: neither it nor its children are the run's.
    const later = rows.filter((row) => row.pid !== 4100)
    later.push(
      {
        pid: 4400,
        parentPid: 4200,
        workingSetBytes: 1_048_576,
        cpuMs: 40,
        createdMicros: at('2026-12-01T11:31:00Z'),
      },
      {
        pid: 4100,
        parentPid: 812,
        workingSetBytes: 7_777_777,
        cpuMs: 9_999,
        createdMicros: at('2026-12-01T11:40:00Z'),
      },
      {
        pid: 4500,
        parentPid: 4100,
        workingSetBytes: 5_555_555,
        cpuMs: 9_999,
        createdMicros: at('2026-12-01T11:41:00Z'),
      },
    )
    expect(sumWindowsRunUsage(later, 4000, known)).toEqual({
      rssBytes: 10_485_760 + 4_194_304 + 1_048_576,
      cpuMs: 450 + 10 + 40,
      processes: 3,
      partial: false,
    })
    expect([...known.keys()].sort()).toEqual([4000, 4200, 4400])
  })

  it('a root pid that an earlier sample saw on another process is not the run', () => {
    const known = new Map([[4000, String(at('2026-12-01T10:00:00Z'))]])
    expect(sumWindowsRunUsage(rows, 4000, known)).toBeNull()
    expect(known.size).toBe(0)
  })

  it('the root gone and nothing known: null; a known process that exited is forgotten', () => {
    const known = new Map([[4200, String(at('2026-12-01T11:30:06Z'))]])
    expect(
      sumWindowsRunUsage(
        rows.filter((row) => row.pid !== 4000 && row.pid !== 4200),
        4000,
        known,
      ),
    ).toBeNull()
    expect(known.size).toBe(0)
  })

  it('a child whose creation time is unknown is not counted, and the sample says partial', () => {
    const unknownChild = rows.map((row) => (row.pid === 4100 ? { ...row, createdMicros: null } : row))
    expect(sumWindowsRunUsage(unknownChild, 4000, new Map())).toEqual({
      rssBytes: 10_485_760,
      cpuMs: 450,
      processes: 1,
      partial: true,
    })
  })

  it('a counted process without usage figures makes the sample partial', () => {
    const noFigures = rows.map((row) =>
      row.pid === 4200 ? { ...row, workingSetBytes: null, cpuMs: null } : row,
    )
    expect(sumWindowsRunUsage(noFigures, 4000, new Map())).toEqual({
      rssBytes: 10_485_760 + 52_428_800,
      cpuMs: 1_450,
      processes: 3,
      partial: true,
    })
  })

  it('a parent-pid cycle (pid reuse) ends', () => {
    const cycle: Win32ProcessRow[] = [
      { pid: 4000, parentPid: 4100, workingSetBytes: 1, cpuMs: 1, createdMicros: 10 },
      { pid: 4100, parentPid: 4000, workingSetBytes: 2, cpuMs: 2, createdMicros: 10 },
    ]
    expect(sumWindowsRunUsage(cycle, 4000, new Map())).toEqual({
      rssBytes: 3,
      cpuMs: 3,
      processes: 2,
      partial: false,
    })
  })
})

describe('the Windows probe asks tools from SystemRoot within one 1 s budget (exact calls)', () => {
  it('WMIC answers: one call, the whole tree', async () => {
    const { calls, run, now } = recordingRunner({ [WMIC]: { tookMs: 120, answer: WMIC_OUTPUT } })
    expect(await probeProcessGroup(4000, { platform: 'win32', env: ENV, run, now })).toEqual(RUN_USAGE)
    expect(calls).toEqual([[WMIC, WMIC_ARGS, 750]])
  })

  it('WMIC missing (ENOENT, newest Windows 11): PowerShell, with what is left of the budget', async () => {
    const { calls, run, now } = recordingRunner({
      [WMIC]: { tookMs: 3, answer: enoent(WMIC) },
      [POWERSHELL]: { tookMs: 600, answer: POWERSHELL_OUTPUT },
    })
    expect(await probeProcessGroup(4000, { platform: 'win32', env: ENV, run, now })).toEqual(RUN_USAGE)
    expect(calls).toEqual([
      [WMIC, WMIC_ARGS, 750],
      [POWERSHELL, POWERSHELL_ARGS, 747],
    ])
  })

  it('WMIC prints an error instead of a table: PowerShell', async () => {
    const { calls, run, now } = recordingRunner({
      [WMIC]: { tookMs: 40, answer: 'Invalid XSL format (or) file name.\r\n' },
      [POWERSHELL]: { tookMs: 500, answer: POWERSHELL_OUTPUT },
    })
    expect(await probeProcessGroup(4000, { platform: 'win32', env: ENV, run, now })).toEqual(RUN_USAGE)
    expect(calls.map((call) => call[2])).toEqual([750, 710])
  })

  it('both fail: tasklist samples the root alone, flagged partial', async () => {
    const timedOut = Object.assign(new Error('Command failed'), { killed: true, signal: 'SIGTERM' })
    const { calls, run, now } = recordingRunner({
      [WMIC]: { tookMs: 2, answer: enoent(WMIC) },
      [POWERSHELL]: { tookMs: 748, answer: timedOut },
      [TASKLIST]: {
        tookMs: 90,
        answer: '"bash.exe","4000","Console","1","10,240 K","Running","BUILD-PC\\dev","0:00:03","N/A"\r\n',
      },
    })
    expect(await probeProcessGroup(4000, { platform: 'win32', env: ENV, run, now })).toEqual({
      rssBytes: 10_240 * 1024,
      cpuMs: 3_000,
      processes: 1,
      partial: true,
    })
    expect(calls).toEqual([
      [WMIC, WMIC_ARGS, 750],
      [POWERSHELL, POWERSHELL_ARGS, 748],
      [TASKLIST, TASKLIST_ARGS, 250],
    ])
  })

  it('WMIC hangs: no time for PowerShell, tasklist gets the rest', async () => {
    const { calls, run, now } = recordingRunner({
      [WMIC]: { tookMs: 760, answer: Object.assign(new Error('Command failed'), { killed: true }) },
      [TASKLIST]: {
        tookMs: 90,
        answer: 'INFO: No tasks are running which match the specified criteria.\r\n',
      },
    })
    expect(await probeProcessGroup(4000, { platform: 'win32', env: ENV, run, now })).toBeNull()
    expect(calls).toEqual([
      [WMIC, WMIC_ARGS, 750],
      [TASKLIST, TASKLIST_ARGS, 240],
    ])
  })

  it('the budget spent: no tool is started with no time (execFile would read 0 as no timeout)', async () => {
    const { calls, run, now } = recordingRunner({
      [WMIC]: { tookMs: 1_000, answer: new Error('Command failed') },
    })
    expect(await probeProcessGroup(4000, { platform: 'win32', env: ENV, run, now })).toBeNull()
    expect(calls).toEqual([[WMIC, WMIC_ARGS, 750]])
  })

  it('the caller-kept map carries the run across samples, as run-watchers passes it', async () => {
    const known = new Map<number, string>()
    const first = recordingRunner({ [WMIC]: { tookMs: 100, answer: WMIC_OUTPUT } })
    await probeProcessGroup(4000, { platform: 'win32', env: ENV, run: first.run, now: first.now, known })
    // The root exited (its pid reused by nobody yet): its children still run and are still counted.
    const orphans = WMIC_OUTPUT.split('\r\r\n')
      .filter((line) => !line.includes(',4000,3000000,'))
      .join('\r\r\n')
    const second = recordingRunner({ [WMIC]: { tookMs: 100, answer: orphans } })
    expect(
      await probeProcessGroup(4000, { platform: 'win32', env: ENV, run: second.run, now: second.now, known }),
    ).toEqual({ rssBytes: 54 * 1024 * 1024, cpuMs: 1_010, processes: 2, partial: false })
  })

  it('the tools come from the host SystemRoot (C:\\Windows when the env has none), never from PATH', async () => {
    const { calls, run, now } = recordingRunner({})
    // Every tool fails here; tasklist's failure reaches the sampler, which counts it as one.
    await expect(
      probeProcessGroup(4000, { platform: 'win32', env: { PATH: 'C:\\repo' }, run, now }),
    ).rejects.toThrow('unexpected C:\\Windows\\System32\\tasklist.exe')
    expect(calls.map((call) => call[0])).toEqual([
      'C:\\Windows\\System32\\wbem\\WMIC.exe',
      'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
      'C:\\Windows\\System32\\tasklist.exe',
    ])
  })

  it('tasklist output that is not a process row is no sample', () => {
    expect(parseTasklistCsv('INFO: No tasks are running which match the specified criteria.')).toBeNull()
  })
})
