import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SETTINGS_FILE_MAX_BYTES } from '../../../../src/main/core/settings/settings-file'
import {
  readWorkspaceNetwork,
  workspaceNetworkFile,
} from '../../../../src/main/core/settings/workspace-network-file'

/**
 * The workspace's network file is read once per networked command, synchronously (no thread-pool
 * round trips on the command's critical path). The synchronous read keeps every refusal of the
 * async one: what it reads may have been replaced by another program of the same user.
 */
let root: string
let home: string
let workspace: string
let file: string
const SECRET = 'SECRET-MARKER-0c7d21'

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'shellgate-network-read-')))
  home = join(root, 'home')
  workspace = join(root, 'ws')
  mkdirSync(workspace, { recursive: true })
  file = workspaceNetworkFile(home, workspace)
  mkdirSync(dirname(file), { recursive: true })
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('reading a workspace network file', () => {
  it('a valid file gives its ports and domains; a missing one allows nothing, with no problem', async () => {
    expect(await readWorkspaceNetwork(home, workspace)).toMatchObject({
      file,
      value: { allowedPorts: [], allowlist: [] },
      problem: null,
    })
    writeFileSync(file, JSON.stringify({ allowedPorts: [5432], allowlist: ['registry.npmjs.org'] }))
    expect(await readWorkspaceNetwork(home, workspace)).toMatchObject({
      value: { allowedPorts: [5432], allowlist: ['registry.npmjs.org'] },
      problem: null,
    })
  })

  it('is found through a symlinked workspace: the file is keyed by the real path', async () => {
    writeFileSync(file, JSON.stringify({ allowedPorts: [6379] }))
    const link = join(root, 'link-to-ws')
    symlinkSync(workspace, link)
    expect((await readWorkspaceNetwork(home, link)).value.allowedPorts).toEqual([6379])
  })

  it('a symlink in its place is refused without reading the target: nothing is allowed', async () => {
    const target = join(root, 'elsewhere.json')
    writeFileSync(target, JSON.stringify({ allowedPorts: [22], allowlist: [SECRET] }))
    symlinkSync(target, file)
    const read = await readWorkspaceNetwork(home, workspace)
    expect(read.value).toMatchObject({ allowedPorts: [], allowlist: [] })
    expect(read.problem).toContain('is a symlink')
    expect(read.problem).not.toContain(SECRET)
  })

  it('a FIFO in its place is refused at once (the open never blocks), nothing is allowed', async () => {
    execFileSync('mkfifo', ['-m', '0600', file])
    const read = await readWorkspaceNetwork(home, workspace)
    expect(read.value.allowedPorts).toEqual([])
    expect(read.problem).toContain('is not a regular file')
  })

  it('an oversized file or broken JSON is refused without quoting a byte of it', async () => {
    writeFileSync(file, `{"allowlist": ["${SECRET}"], "pad": "${'x'.repeat(SETTINGS_FILE_MAX_BYTES)}"}`)
    const big = await readWorkspaceNetwork(home, workspace)
    expect(big.problem).toContain('-byte limit')
    expect(big.value.allowlist).toEqual([])
    writeFileSync(file, `{"allowlist": ["${SECRET}"`)
    const broken = await readWorkspaceNetwork(home, workspace)
    expect(broken.problem).toContain('is not valid JSON')
    expect(broken.problem).not.toContain(SECRET)
    expect(broken.value.allowlist).toEqual([])
  })
})
