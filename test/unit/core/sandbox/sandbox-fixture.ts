import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import type { ExecutionSandbox } from '../../../../src/main/core/sandbox/types'

/**
 * A home, a SHELLGATE_HOME and a git workspace under /var/tmp, NOT /tmp: every sandbox mounts a
 * private empty /tmp, which would hide a fixture there on its own and make "hidden" tests pass
 * for the wrong reason.
 */
export interface SandboxWorld {
  root: string
  home: string
  dataDir: string
  workspace: string
  outside: string
  base(overrides?: Partial<ExecutionSandbox>): ExecutionSandbox
}

export const FIXTURE_ROOT = '/var/tmp'

export function sandboxWorlds(): () => SandboxWorld {
  const made: string[] = []
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  return () => {
    const root = realpathSync(mkdtempSync(join(FIXTURE_ROOT, 'shellgate-sandbox-')))
    made.push(root)
    const home = join(root, 'home')
    const dataDir = join(home, '.shellgate')
    const workspace = join(root, 'ws')
    const outside = join(root, 'outside')
    mkdirSync(join(home, '.ssh'), { recursive: true })
    writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n')
    writeFileSync(join(home, '.netrc'), 'machine example.com password hunter2\n')
    mkdirSync(join(dataDir, 'exec'), { recursive: true })
    writeFileSync(join(dataDir, 'settings.json'), '{}\n')
    mkdirSync(join(workspace, '.git', 'hooks'), { recursive: true })
    writeFileSync(join(workspace, '.git', 'config'), '[core]\n')
    mkdirSync(join(workspace, '.shellgate'), { recursive: true })
    mkdirSync(outside, { recursive: true })
    const emptyFile = join(root, 'empty')
    writeFileSync(emptyFile, '', { mode: 0o400 })
    return {
      root,
      home,
      dataDir,
      workspace,
      outside,
      base: (overrides = {}) => ({
        profile: 'workspace-write',
        workspace,
        writableRoots: [],
        protectedPaths: [
          join(workspace, '.git', 'hooks'),
          join(workspace, '.git', 'config'),
          join(workspace, '.shellgate'),
        ],
        hidden: [
          { path: join(home, '.ssh'), kind: 'dir' },
          { path: join(home, '.netrc'), kind: 'file' },
          { path: dataDir, kind: 'dir' },
        ],
        emptyFile,
        exposed: [],
        network: 'off',
        ...overrides,
      }),
    }
  }
}
