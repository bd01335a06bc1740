import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { probeProcessGroup } from '../../../../src/main/core/exec'
import { descendantsOf, parsePsTable, readProcessTable } from '../../../../src/main/core/exec/process-table'
import { parsePsGroupUsage } from '../../../../src/main/core/exec/resource-probe.parse'
import { RESOURCE_SAMPLE_MAX, ResourceSampler } from '../../../../src/main/core/exec/resource-sampler'
import type { ResourceSample } from '../../../../src/main/core/exec/types'

describe('process table', () => {
  // Root → sleep, and root → sh → sleep: three descendants, all in the root's group.
  it('finds the descendants of a real detached tree in /proc', async () => {
    const child = spawn('sh', ['-c', 'sleep 30 & sh -c "sleep 30 & wait" & wait'], {
      detached: true,
      stdio: 'ignore',
    })
    try {
      let found: number[] = []
      for (let attempt = 0; attempt < 100 && found.length < 3; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        found = descendantsOf(await readProcessTable('linux'), child.pid!).map((entry) => entry.pid)
      }
      expect(found).toHaveLength(3)
      const table = await readProcessTable('linux')
      expect(
        table.filter((entry) => found.includes(entry.pid)).every((entry) => entry.pgid === child.pid),
      ).toBe(true)
    } finally {
      process.kill(-child.pid!, 'SIGKILL')
    }
  })

  it('parses ps output, including start times with spaces', () => {
    const table = parsePsTable(
      '  10     1    10 Ss   Mon Nov 30 02:00:00 2026\n  11    10    10 R+   Mon Nov 30 02:00:01 2026\n',
    )
    expect(table).toEqual([
      { pid: 10, ppid: 1, pgid: 10, state: 'S', startTime: 'Mon Nov 30 02:00:00 2026' },
      { pid: 11, ppid: 10, pgid: 10, state: 'R', startTime: 'Mon Nov 30 02:00:01 2026' },
    ])
    expect(descendantsOf(table, 10).map((entry) => entry.pid)).toEqual([11])
  })
})

describe('resource probe', () => {
  it('samples RSS and CPU of a real process group from /proc', async () => {
    const child = spawn('sh', ['-c', 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; sleep 30'], {
      detached: true,
      stdio: 'ignore',
    })
    try {
      await new Promise((resolve) => setTimeout(resolve, 300))
      const usage = await probeProcessGroup(child.pid!, { platform: 'linux' })
      expect(usage!.rssBytes).toBeGreaterThan(0)
      expect(usage!.cpuMs).toBeGreaterThan(0)
    } finally {
      process.kill(-child.pid!, 'SIGKILL')
    }
    expect(await probeProcessGroup(2 ** 22 + 7, { platform: 'linux' })).toBeNull()
  })

  // Windows (the process tree through WMIC or PowerShell, tasklist as the last resort) is in
  // windows-resource-probe.test.ts.
  it('asks ps on macOS', async () => {
    const calls: [string, string[]][] = []
    const run = async (file: string, args: string[]) => {
      calls.push([file, args])
      return '  40  2048  0:01.50\n  40  1024  1:00.00\n  41  9999  0:00.00\n'
    }
    expect(await probeProcessGroup(40, { platform: 'darwin', run })).toEqual({
      rssBytes: 3072 * 1024,
      cpuMs: 61_500,
    })
    expect(calls).toEqual([['ps', ['-A', '-o', 'pgid=', '-o', 'rss=', '-o', 'time=']]])
    expect(parsePsGroupUsage('  1  2  0:00.00', 40)).toBeNull()
  })
})

describe('the macOS probe follows the run through ps -E (issue 15.7, platform parameter)', () => {
  it('counts the group and the tagged processes once each, with exactly these ps calls', async () => {
    const calls: [string, string[]][] = []
    const run = async (file: string, args: string[]) => {
      calls.push([file, args])
      if (args.includes('-E'))
        return [
          '  40 /bin/bash -c x SHELLGATE_RUN_ID=run-1 HOME=/u',
          '  77 /usr/bin/daemon SHELLGATE_RUN_ID=run-1',
          '  78 /usr/bin/other SHELLGATE_RUN_ID=run-10',
          '',
        ].join('\n')
      return [
        '  40  40  2048  0:01.50 Tue Dec  1 13:15:46 2026',
        '  41  40  1024  1:00.00 Tue Dec  1 13:15:47 2026',
        '  77  77  4096  0:02.00 Tue Dec  1 13:15:48 2026',
        '  78  78  9999  9:00.00 Tue Dec  1 13:15:49 2026',
        '',
      ].join('\n')
    }
    expect(await probeProcessGroup(40, { platform: 'darwin', run, runId: 'run-1' })).toEqual({
      rssBytes: (2048 + 1024 + 4096) * 1024,
      cpuMs: 63_500,
      processes: 3,
      partial: false,
    })
    expect(calls).toEqual([
      ['ps', ['-E', '-A', '-ww', '-o', 'pid=', '-o', 'command=']],
      ['ps', ['-A', '-o', 'pid=', '-o', 'pgid=', '-o', 'rss=', '-o', 'time=', '-o', 'lstart=']],
    ])
  })

  it('flags a sample partial when a process counted before still runs but is neither in the group nor tagged', async () => {
    let usage = [
      '  40  40  2048  0:01.50 Tue Dec  1 13:15:46 2026',
      '  41  40  1024  1:00.00 Tue Dec  1 13:15:47 2026',
    ]
    const run = async (_file: string, args: string[]) =>
      args.includes('-E') ? '  40 /bin/bash SHELLGATE_RUN_ID=run-1\n' : `${usage.join('\n')}\n`
    const known = new Map<number, string>()
    const probe = () => probeProcessGroup(40, { platform: 'darwin', run, runId: 'run-1', known })
    expect(await probe()).toMatchObject({ processes: 2, partial: false })
    // 41 left the group (setsid) and dropped the tag (env -i): still running, no longer found.
    usage = [usage[0]!, '  41  41  1024  1:00.00 Tue Dec  1 13:15:47 2026']
    expect(await probe()).toEqual({ rssBytes: 2048 * 1024, cpuMs: 1_500, processes: 1, partial: true })
    // The pid now names another process (another start time): nothing of the run is missing.
    usage = [usage[0]!, '  41  41  1024  0:00.00 Tue Dec  1 14:00:00 2026']
    expect(await probe()).toMatchObject({ processes: 1, partial: false })
    expect([...known.keys()]).toEqual([40])
  })
})

describe('resource sampler', () => {
  function sampler(
    probe: () => Promise<{ rssBytes: number; cpuMs: number } | null>,
    samples: ResourceSample[],
  ) {
    return new ResourceSampler({
      pid: 5,
      probe,
      onSample: (sample) => samples.push(sample),
      elapsedMs: () => 0,
      intervalMs: 1,
    })
  }
  /** Waits until `count()` reaches `target`, then a little longer to see that it stays there. */
  async function settlesAt(count: () => number, target: number, quietMs = 200) {
    const deadline = Date.now() + 10_000
    while (count() < target && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10))
    await new Promise((resolve) => setTimeout(resolve, quietMs))
    expect(count()).toBe(target)
  }

  it('stops after 3 consecutive failures', async () => {
    let calls = 0
    const samples: ResourceSample[] = []
    sampler(async () => {
      calls++
      return null
    }, samples).start()
    await settlesAt(() => calls, 3)
    expect(samples).toEqual([])
  })

  it('samples at most 20 times', async () => {
    const samples: ResourceSample[] = []
    sampler(async () => ({ rssBytes: 1, cpuMs: 2 }), samples).start()
    await settlesAt(() => samples.length, RESOURCE_SAMPLE_MAX)
    expect(samples[0]).toEqual({ pid: 5, rssBytes: 1, cpuMs: 2, elapsedMs: 0 })
  })

  it('a probe that hangs counts as a failure (1 s timeout), so three hangs disable it', async () => {
    let calls = 0
    const samples: ResourceSample[] = []
    sampler(() => {
      calls++
      return new Promise(() => {})
    }, samples).start()
    await settlesAt(() => calls, 3, 1_300)
    expect(samples).toEqual([])
  })
})
