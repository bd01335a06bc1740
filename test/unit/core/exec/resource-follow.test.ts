import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import type { ResourceSample } from '../../../../src/main/core/exec/types'
import { tempDirsRemovedAfterEach } from './temp-dir'

const tempDir = tempDirsRemovedAfterEach()
const PATH_ONLY = { PATH: process.env.PATH ?? '/usr/bin:/bin' }
const port = createExecutionPort({ resourceSampleIntervalMs: 200 })

/** Runs a posix-bash command until a sample satisfies `wanted`, then cancels it; returns that sample. */
async function sampleUntil(command: string, wanted: (sample: ResourceSample) => boolean) {
  const controller = new AbortController()
  let hit: ResourceSample | undefined
  const seen: ResourceSample[] = []
  await port.execute(
    {
      command: { mode: 'shell', command, shellProfile: 'posix-bash' },
      cwd: tempDir(),
      env: PATH_ONLY,
      timeoutMs: 20_000,
      signal: controller.signal,
    },
    {
      onResourceSample: (sample) => {
        seen.push(sample)
        if (!hit && wanted(sample)) {
          hit = sample
          controller.abort()
        }
      },
    },
  )
  return { hit, seen }
}

const MIB = 1024 * 1024

describe('the resource probe follows the run, not only its group (issue 15.7)', () => {
  it("counts a setsid child's memory and CPU, found by the run tag", async () => {
    // The escapee holds a 40 MiB string in its own session; the group itself is a shell and a sleep.
    const { hit, seen } = await sampleUntil(
      'setsid bash -c \'x=$(head -c 41943040 /dev/zero | tr "\\0" a); sleep 30\' & sleep 30',
      (sample) => sample.rssBytes > 40 * MIB,
    )
    expect(hit, `no sample counted the escapee: ${JSON.stringify(seen.at(-1))}`).toBeDefined()
    expect(hit!.processes).toBeGreaterThanOrEqual(3)
    expect(hit!.partial).toBe(false)
  })

  it('flags a sample as partial when a process counted before still runs but can no longer be found', async () => {
    const dir = tempDir()
    const pidFile = join(dir, 'escapee')
    const goFile = join(dir, 'go')
    // The subshell waits in the group until a sample has counted it (no clock: the test says go
    // once a sample saw the shell, the subshell and its sibling); then it leaves the group and
    // drops the tag.
    const { hit } = await sampleUntil(
      `(echo $BASHPID > '${pidFile}'; while [ ! -e '${goFile}' ]; do sleep 0.05; done; exec env -i /usr/bin/setsid /bin/sleep 30) & sleep 30`,
      (sample) => {
        if ((sample.processes ?? 0) >= 3 && !existsSync(goFile)) writeFileSync(goFile, '')
        return sample.partial === true
      },
    )
    try {
      expect(hit).toMatchObject({ partial: true })
    } finally {
      // The tree kill finds it as a descendant; if it had been re-parented it would escape, so make sure.
      try {
        process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
  })
})
