import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  CACHE_IDLE_LIMIT_MS,
  LAST_USE_RESOLUTION_MS,
  listPrivateCaches,
  prunePrivateCaches,
} from '../../../../src/main/core/sandbox/tool-cache-prune'
import { runCliCaptured } from '../../cli/run-cli'
import { runInSandbox, type SandboxWorld, sandboxWorlds } from './sandbox-fixture'

/**
 * Each workspace's private tool caches (issue 19's cache decision) are removed when the workspace
 * is gone or unused for 30 days, and never while a run uses them. The caches here are made the
 * way the product makes them: a real workspace-write run in real bwrap writes into ~/.npm.
 */
const world = sandboxWorlds()
const DAY_MS = 86_400_000

async function downloadInto(w: SandboxWorld): Promise<string> {
  mkdirSync(join(w.home, '.npm'), { recursive: true })
  const result = await runInSandbox(w, w.base(), 'echo tarball > ~/.npm/downloaded && echo ok')
  expect(result.stdout, result.stderr).toBe('ok\n')
  const root = join(w.dataDir, 'sandbox-caches')
  const [key] = readdirSync(root)
  return join(root, key as string)
}

function age(label: string, days: number): void {
  const at = new Date(Date.now() - days * DAY_MS)
  utimesSync(label, at, at)
}

describe('pruning the private tool caches', () => {
  it("a deleted workspace's caches go; a workspace in use keeps its own", async () => {
    const w = world()
    const caches = await downloadInto(w)
    const other = join(w.dataDir, 'sandbox-caches', 'other-workspace')
    mkdirSync(join(other, '.npm'), { recursive: true })
    writeFileSync(join(other, 'WORKSPACE'), `${w.outside}\n`)
    renameSync(w.workspace, `${w.workspace}-deleted`)
    expect(listPrivateCaches(w.dataDir).map((found) => [found.workspace, found.state])).toEqual([
      [w.workspace, 'workspace gone'],
      [w.outside, 'in use'],
    ])
    const pruned = prunePrivateCaches(w.dataDir)
    await pruned.deleted
    expect(pruned.removed.map((found) => found.path)).toEqual([caches])
    expect(pruned.failed).toEqual([])
    expect(existsSync(caches)).toBe(false)
    expect(readdirSync(join(w.dataDir, 'sandbox-caches'))).toEqual(['other-workspace'])
  })

  it('caches unused for 30 days go, and the next run there starts a fresh one', async () => {
    const w = world()
    const caches = await downloadInto(w)
    age(join(caches, 'WORKSPACE'), 31)
    expect(listPrivateCaches(w.dataDir)[0]?.state).toBe('idle')
    age(join(caches, 'WORKSPACE'), 29)
    expect(listPrivateCaches(w.dataDir)[0]?.state).toBe('in use')
    age(join(caches, 'WORKSPACE'), 31)
    await prunePrivateCaches(w.dataDir).deleted
    expect(existsSync(caches)).toBe(false)
    const again = await runInSandbox(w, w.base(), 'cat ~/.npm/downloaded 2>&1 || echo fresh')
    expect(again.stdout).toMatch(/fresh\n$/)
    expect(readFileSync(join(caches, 'WORKSPACE'), 'utf8')).toBe(`${w.workspace}\n`)
  })

  it('a run marks its caches used (at most once an hour), so they are not idle', async () => {
    const w = world()
    const caches = await downloadInto(w)
    const label = join(caches, 'WORKSPACE')
    age(label, 40)
    await runInSandbox(w, w.base(), 'true')
    expect(Date.now() - statSync(label).mtimeMs).toBeLessThan(LAST_USE_RESOLUTION_MS)
    expect(listPrivateCaches(w.dataDir)[0]?.state).toBe('in use')
    // Within the hour, a run writes nothing.
    const marked = statSync(label).mtimeMs
    await runInSandbox(w, w.base(), 'true')
    expect(statSync(label).mtimeMs).toBe(marked)
  })

  it('caches used again between the listing and the removal are put back, contents and all', async () => {
    const w = world()
    const caches = await downloadInto(w)
    // Listed as if a month had passed; looked at again after the rename, at the real time, in use.
    const pruned = prunePrivateCaches(w.dataDir, Date.now() + CACHE_IDLE_LIMIT_MS + DAY_MS)
    await pruned.deleted
    expect(pruned.removed).toEqual([])
    expect(readFileSync(join(caches, '.npm', 'downloaded'), 'utf8')).toBe('tarball\n')
  })

  it('folders it did not make are left alone; ones an interrupted prune left aside are deleted', async () => {
    const w = world()
    const root = join(w.dataDir, 'sandbox-caches')
    mkdirSync(join(root, 'made-by-hand'), { recursive: true })
    writeFileSync(join(root, 'made-by-hand', 'notes'), 'mine\n')
    mkdirSync(join(root, '.pruning-0123456789ab', '.npm'), { recursive: true })
    expect(listPrivateCaches(w.dataDir).map((found) => found.state)).toEqual(['unlabelled'])
    await prunePrivateCaches(w.dataDir, Date.now() + 365 * DAY_MS).deleted
    expect(readdirSync(root)).toEqual(['made-by-hand'])
  })

  it('shellgate sandbox caches lists them and --prune removes the gone ones', async () => {
    const w = world()
    const caches = await downloadInto(w)
    const env = { PATH: '/usr/bin:/bin', HOME: w.home, SHELLGATE_HOME: w.dataDir }
    const listed = await runCliCaptured(['sandbox', 'caches'], { env })
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(
      new RegExp(`^in use +${w.workspace}  last used \\d{4}-\\d\\d-\\d\\d  ${caches}$`, 'm'),
    )
    renameSync(w.workspace, `${w.workspace}-deleted`)
    const hinted = await runCliCaptured(['sandbox', 'caches'], { env })
    expect(hinted.stdout).toContain('workspace gone')
    expect(hinted.stdout).toContain('removed when Shellgate starts, or now with --prune')
    const pruned = await runCliCaptured(['sandbox', 'caches', '--prune', '--json'], { env })
    expect(pruned.code).toBe(0)
    expect(JSON.parse(pruned.stdout)).toMatchObject({
      caches: [],
      removed: [{ path: caches, workspace: w.workspace, state: 'workspace gone' }],
      failed: [],
    })
    expect(existsSync(caches)).toBe(false)
    const misused = await runCliCaptured(['sandbox', 'status', '--prune'], { env })
    expect(misused.code).toBe(2)
    expect(misused.stderr).toContain('--prune belongs to `sandbox caches`')
  })
})
