import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { planLayout } from '../../../../src/main/core/sandbox/sandbox-layout'
import { SandboxSettingsSchema } from '../../../../src/shared/settings'
import { runInSandbox, type SandboxWorld, sandboxWorlds, TEST_PATH } from './sandbox-fixture'

/**
 * The decision on tool caches (issue 19): a workspace-write command writes this workspace's own
 * copy of each cache, bound where the tool looks, never the person's, which their builds outside
 * the sandbox trust as it lies (Go's module and build caches, cargo's registry, npx's folder).
 */
const world = sandboxWorlds()
const run = runInSandbox

function withCaches(w: SandboxWorld) {
  mkdirSync(join(w.home, '.npm', '_npx', 'abc', 'node_modules', '.bin'), { recursive: true })
  writeFileSync(
    join(w.home, '.npm', '_npx', 'abc', 'node_modules', '.bin', 'tool'),
    '#!/bin/sh\necho genuine\n',
  )
  mkdirSync(join(w.home, 'go', 'pkg', 'mod'), { recursive: true })
}

describe('tool caches in real bwrap', () => {
  it("a command plants into ~/.npm/_npx and the go module cache: the person's own stay as they were", async () => {
    const w = world()
    withCaches(w)
    const planted = [
      "printf '#!/bin/sh\\necho planted\\n' > ~/.npm/_npx/abc/node_modules/.bin/tool 2>&1 || echo npx-refused",
      'mkdir -p ~/go/pkg/mod/example.test/m@v1 && echo "package m // planted" > ~/go/pkg/mod/example.test/m@v1/m.go',
      'cat ~/go/pkg/mod/example.test/m@v1/m.go',
    ].join('; ')
    const result = await run(w, w.base(), planted)
    // Inside, the tools work: what the command wrote is there for it.
    expect(result.stdout, result.stderr).toContain('package m // planted')
    expect(
      readFileSync(join(w.home, '.npm', '_npx', 'abc', 'node_modules', '.bin', 'tool'), 'utf8'),
    ).toContain('genuine')
    expect(existsSync(join(w.home, 'go', 'pkg', 'mod', 'example.test'))).toBe(false)
    const privateRoot = join(w.dataDir, 'sandbox-caches')
    const [key] = readdirSync(privateRoot)
    expect(readFileSync(join(privateRoot, key as string, 'WORKSPACE'), 'utf8')).toBe(`${w.workspace}\n`)
    expect(existsSync(join(privateRoot, key as string, 'go_pkg_mod', 'example.test', 'm@v1', 'm.go'))).toBe(
      true,
    )
  })

  it('the next run in the workspace finds what the last one downloaded; the read-only profile has no cache', async () => {
    const w = world()
    withCaches(w)
    await run(w, w.base(), 'echo kept > ~/.npm/downloaded')
    expect((await run(w, w.base(), 'cat ~/.npm/downloaded')).stdout).toBe('kept\n')
    const readOnly = await run(
      w,
      w.base({ profile: 'read-only' }),
      'cat ~/.npm/downloaded; echo x > ~/.npm/y',
    )
    expect(readOnly.stdout).toBe('')
    expect(readOnly.stderr).toMatch(/No such file|Read-only file system/)
  })

  it('a cache the person lists in Settings is theirs, shared: written for real, and explain says what that allows', async () => {
    const w = world()
    const shared = join(w.root, 'shared-cache')
    mkdirSync(shared)
    const options = { settings: { toolCaches: [shared] } }
    const result = await run(w, w.base({}, options), `echo shared > ${shared}/entry && echo ok`)
    expect(result.stdout, result.stderr).toBe('ok\n')
    expect(readFileSync(join(shared, 'entry'), 'utf8')).toBe('shared\n')
    const layout = w.layout('workspace-write', options)
    expect(layout.writable.find((entry) => entry.path === shared)?.why).toMatch(/shared with your own builds/)
    expect(layout.privateCaches).toEqual([])
  })

  it('on macOS (Seatbelt cannot move a folder) the default caches are left out, and said', () => {
    const w = world()
    withCaches(w)
    const layout = planLayout({
      platform: 'darwin',
      profile: 'workspace-write',
      home: w.home,
      dataDir: w.dataDir,
      workspace: w.workspace,
      cwd: w.workspace,
      searchPath: TEST_PATH,
      settings: SandboxSettingsSchema.parse({}),
      readableFolders: [],
      create: false,
    })
    expect(layout.privateCaches).toEqual([])
    expect(layout.writable.map((entry) => entry.path)).not.toContain(join(w.home, '.npm'))
    expect(layout.leftOut.find((entry) => entry.path === join(w.home, '.npm'))?.why).toMatch(
      /cannot give the workspace its own copy/,
    )
  })
})
