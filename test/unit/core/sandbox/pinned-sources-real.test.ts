import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  symlinkSync,
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  MountSourceChangedError,
  pinMountSources,
} from '../../../../src/main/core/sandbox/pinned-sources.linux'
import { runPrepared } from './git-sandbox-fixture'
import { createSandboxService } from '../../../../src/main/core/sandbox/sandbox-service'
import { runInSandbox, type SandboxWorld, sandboxWorlds, WORKING_BACKEND } from './sandbox-fixture'

/**
 * A red-team finding of issue 19: bwrap resolves mount sources by name when it mounts them, so a
 * sandboxed command running at the same time in the same workspace could swap a planned folder
 * (`.git/objects`, writable; `.git/hooks`, read-only) for a relative symlink between the plan and
 * the mount, and the next command got the person's real home folder mounted. The swap is made
 * here between prepare and the run, the moment the race aims for, deterministically.
 */
const world = sandboxWorlds()

/** `.git/<name>` renamed aside and replaced by `../../home`, which leads from the workspace to the world's home. */
function swapForHome(w: SandboxWorld, name: string): string {
  const planned = join(w.workspace, '.git', name)
  const aside = `${planned}-real`
  renameSync(planned, aside)
  symlinkSync('../../home', planned)
  return aside
}

const ESCAPE = 'cat ~/.ssh/id_ed25519; echo escaped > ~/.planted 2>/dev/null; ls -a ~'

describe('mount sources are pinned when the sandbox is prepared', () => {
  it('without pinning, the swap works in real bwrap: the home folder is mounted (the class this guards)', async () => {
    const w = world()
    const sandbox = w.base()
    swapForHome(w, 'objects')
    const result = await runInSandbox(w, sandbox, ESCAPE)
    expect(result.stdout).toContain('PRIVATE KEY')
    expect(readFileSync(join(w.home, '.planted'), 'utf8')).toBe('escaped\n')
  })

  it.each([
    ['objects', 'writable'],
    ['hooks', 'read-only'],
  ])(
    '.git/%s (a %s mount) swapped after prepare: the home is never mounted, and bwrap refuses to go on',
    async (folder) => {
      const w = world()
      const prepared = await w.service().prepare(w.prepareInput('workspace-write'))
      if (prepared.kind !== 'run') throw new Error('expected a run')
      try {
        swapForHome(w, folder)
        const result = await runPrepared(w, prepared, ESCAPE)
        expect(result.stdout).not.toContain('PRIVATE KEY')
        expect(existsSync(join(w.home, '.planted'))).toBe(false)
        // bwrap bound the checked folder, found the destination leading elsewhere, and stopped.
        expect(result.exitCode).not.toBe(0)
        const output = result.stdout + result.stderr
        expect(output).toContain('Race condition binding dirfd')
        expect(prepared.explain({ exitCode: result.exitCode, output })).toMatch(
          /^blocked by the sandbox: a folder it mounts was swapped for a link while the sandbox started/,
        )
      } finally {
        await prepared.release()
      }
    },
  )

  it('a folder swapped between the plan and the pin is refused, with every descriptor closed', () => {
    const w = world()
    const sandbox = w.base()
    const before = openDescriptors()
    swapForHome(w, 'objects')
    expect(() => pinMountSources(sandbox)).toThrow(MountSourceChangedError)
    expect(() => pinMountSources(sandbox)).toThrow(
      /objects changed while the sandbox was being prepared \(it now leads to .*\/home\)/,
    )
    expect(openDescriptors()).toBe(before)
  })

  it("a folder outside the workspace (another workspace's, added as readable) swapped for a link to the home is refused", () => {
    const w = world()
    const docs = join(w.outside, 'docs')
    mkdirSync(docs)
    const sandbox = w.base({ profile: 'read-only' }, { readableFolders: [docs] })
    expect(sandbox.readable.map((entry) => entry.path)).toContain(docs)
    renameSync(docs, `${docs}-real`)
    symlinkSync(w.home, docs)
    expect(() => pinMountSources(sandbox)).toThrow(
      new RegExp(`${docs} changed while the sandbox was being prepared \\(it now leads to ${w.home}\\)`),
    )
  })

  it('a planned source that vanished is refused too; an unchanged layout pins every source outside the system folders', () => {
    const w = world()
    mkdirSync(join(w.workspace, '.git', 'info'), { recursive: true })
    const sandbox = w.base()
    const pinned = pinMountSources(sandbox)
    try {
      expect(Object.keys(pinned.sources)).toContain(w.workspace)
      expect(Object.keys(pinned.sources)).toContain(join(w.workspace, '.git', 'objects'))
      expect(Object.keys(pinned.sources).some((path) => path.startsWith('/usr'))).toBe(false)
      for (const [path, fd] of Object.entries(pinned.sources))
        expect(readlinkSync(`/proc/self/fd/${fd}`)).toBe(path)
    } finally {
      pinned.close()
    }
    renameSync(join(w.workspace, '.git', 'info'), join(w.workspace, '.git', 'info-gone'))
    expect(() => pinMountSources(sandbox)).toThrow(/info could not be opened to mount it \(ENOENT\)/)
  })

  it('the service refuses the run with that reason, and starts nothing', async () => {
    const w = world()
    // The person's proxy settings are read after the plan and before the pin (prepareNetwork):
    // the swap lands there, as a command running at the same time would make it.
    const service = createSandboxService({
      platform: 'linux',
      home: w.home,
      dataDir: w.dataDir,
      detect: async () => WORKING_BACKEND,
      parentProxy: async () => {
        swapForHome(w, 'objects')
        return { env: {} }
      },
    })
    const refused = await service.prepare(w.prepareInput('workspace-write'))
    expect(refused).toEqual({
      kind: 'refuse',
      reason: expect.stringMatching(
        /\.git\/objects changed while the sandbox was being prepared \(it now leads to .*\/home\): a command running at the same time may be trying to reach outside its sandbox, so this one was not started/,
      ),
    })
    service.dispose()
  })
})

function openDescriptors(): number {
  return readdirSync('/proc/self/fd').length
}
