import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decideCwdPolicy } from '../../../../../src/main/core/bash/tool/cwd-policy'

describe('cwd policy (seed 003, 工作目录)', () => {
  let root: string
  let workspace: string
  let outside: string
  let linkIntoWorkspace: string
  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'shellgate-cwd-')))
    workspace = join(root, 'ws')
    outside = join(root, 'elsewhere')
    await mkdir(join(workspace, 'sub'), { recursive: true })
    await mkdir(outside)
    linkIntoWorkspace = join(root, 'link')
    await symlink(join(workspace, 'sub'), linkIntoWorkspace)
  })
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })

  const base = () => ({
    workspace,
    currentCwd: workspace,
    succeeded: true,
    mainSession: true,
    platform: 'linux' as const,
  })

  it('keeps a new cwd inside the workspace', () => {
    expect(decideCwdPolicy({ ...base(), capturedCwd: join(workspace, 'sub') })).toEqual({
      cwd: join(workspace, 'sub'),
      reset: false,
      note: null,
    })
  })

  it('resets a cwd outside the workspace, with the note', () => {
    expect(decideCwdPolicy({ ...base(), capturedCwd: outside })).toEqual({
      cwd: workspace,
      reset: true,
      note: `Shell cwd was reset to ${workspace}`,
    })
    // A sibling whose name starts with the workspace's is still outside.
    expect(decideCwdPolicy({ ...base(), capturedCwd: `${workspace}-other` }).reset).toBe(true)
  })

  it('a symlink that resolves into the workspace counts as inside', () => {
    expect(decideCwdPolicy({ ...base(), capturedCwd: linkIntoWorkspace }).reset).toBe(false)
  })

  it('a failed command, a sub-agent or no capture leaves the cwd alone', () => {
    for (const change of [{ succeeded: false }, { mainSession: false }, { capturedCwd: null }]) {
      expect(decideCwdPolicy({ ...base(), capturedCwd: outside, ...change })).toEqual({
        cwd: workspace,
        reset: false,
        note: null,
      })
    }
  })

  it('macOS: /private/tmp and /private/var are the same as /tmp and /var', () => {
    const realpathMac = (path: string) => path
    const decide = (ws: string, captured: string, platform: NodeJS.Platform) =>
      decideCwdPolicy({
        workspace: ws,
        currentCwd: ws,
        capturedCwd: captured,
        succeeded: true,
        mainSession: true,
        platform,
        realpath: realpathMac,
      })
    expect(decide('/tmp/ws', '/private/tmp/ws/sub', 'darwin').reset).toBe(false)
    expect(decide('/private/var/folders/x', '/var/folders/x/y', 'darwin').reset).toBe(false)
    expect(decide('/tmp/ws', '/private/tmp/ws/sub', 'linux').reset).toBe(true)
  })

  it('Windows paths compare case-insensitively', () => {
    const decide = (captured: string) =>
      decideCwdPolicy({
        workspace: 'C:\\Users\\me\\ws',
        currentCwd: 'C:\\Users\\me\\ws',
        capturedCwd: captured,
        succeeded: true,
        mainSession: true,
        platform: 'win32',
        realpath: () => null,
      })
    expect(decide('c:\\users\\ME\\WS\\src').reset).toBe(false)
    expect(decide('D:\\ws').reset).toBe(true)
  })
})
