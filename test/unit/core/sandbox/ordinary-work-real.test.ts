import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import { createSandboxService } from '../../../../src/main/core/sandbox/sandbox-service'
import { SandboxSettingsSchema } from '../../../../src/shared/settings'
import { type SandboxWorld, sandboxWorlds, WORKING_BACKEND } from './sandbox-fixture'

/**
 * Issue 19's Done-when, the filesystem side: ordinary work still works inside workspace-write,
 * with the person's real home folder and the real PATH, so the toolchains are found the way the
 * product finds them (pyenv, rustup's ~/.cargo/bin, /usr/bin). `.ci/run` installs pytest, cargo
 * and go where the machine lacks them; a tool that is still missing is skipped with that reason.
 * git commit, checkout -b, stash and submodule update are in git-seal-real.test.ts.
 */
const port = createExecutionPort()
const world = sandboxWorlds()
const home = process.env.HOME ?? homedir()
const hostPath = process.env.PATH ?? '/usr/bin:/bin'

function onPath(command: string, check: string[]): boolean {
  try {
    execFileSync(command, check, { stdio: 'ignore', env: { PATH: hostPath, HOME: home } })
    return true
  } catch {
    return false
  }
}

async function approved(w: SandboxWorld, script: string) {
  const service = createSandboxService({
    platform: 'linux',
    home,
    dataDir: w.dataDir,
    detect: async () => WORKING_BACKEND,
  })
  const prepared = await service.prepare({
    settings: SandboxSettingsSchema.parse({ network: 'off' }),
    workspace: w.workspace,
    cwd: w.workspace,
    searchPath: hostPath,
    readableFolders: [],
    ranWithoutAsking: false,
    unsandboxedByPerson: false,
    readableFiles: [],
    writableFiles: [],
  })
  if (prepared.kind !== 'run' || !prepared.sandbox) throw new Error('not prepared')
  try {
    return await port.execute({
      command: { mode: 'shell', command: script, shellProfile: 'posix-bash' },
      cwd: w.workspace,
      env: { PATH: hostPath, HOME: home },
      timeoutMs: 120_000,
      sandbox: prepared.sandbox,
    })
  } finally {
    await prepared.release()
  }
}

const hasPytest = onPath('python3', ['-m', 'pytest', '--version'])
const hasCargo = onPath('cargo', ['--version'])
const hasGo = onPath('go', ['version'])

describe('ordinary work inside workspace-write', () => {
  it.skipIf(!hasPytest)(
    'pytest (skipped only when `python3 -m pytest` is not on PATH)',
    async () => {
      const w = world()
      writeFileSync(join(w.workspace, 'calc.py'), 'def add(a, b):\n    return a + b\n')
      writeFileSync(
        join(w.workspace, 'test_calc.py'),
        'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n',
      )
      const result = await approved(w, 'python3 -m pytest -q 2>&1')
      expect(result.stdout).toMatch(/1 passed/)
      expect(result.exitCode).toBe(0)
    },
    180_000,
  )

  it.skipIf(!hasCargo)(
    'cargo build of a crate without dependencies (skipped only when cargo is not on PATH)',
    async () => {
      const w = world()
      mkdirSync(join(w.workspace, 'src'))
      writeFileSync(
        join(w.workspace, 'Cargo.toml'),
        '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n',
      )
      writeFileSync(join(w.workspace, 'src', 'main.rs'), 'fn main() { println!("tiny runs"); }\n')
      const result = await approved(w, 'cargo build --offline -q 2>&1 && ./target/debug/tiny')
      expect(result.stdout).toContain('tiny runs')
      expect(result.exitCode).toBe(0)
    },
    300_000,
  )

  it.skipIf(!hasGo)(
    'go test of a module without dependencies (skipped only when go is not on PATH)',
    async () => {
      const w = world()
      writeFileSync(join(w.workspace, 'go.mod'), 'module example.test/tiny\n\ngo 1.19\n')
      writeFileSync(join(w.workspace, 'tiny.go'), 'package tiny\n\nfunc Add(a, b int) int { return a + b }\n')
      writeFileSync(
        join(w.workspace, 'tiny_test.go'),
        'package tiny\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal("no")\n\t}\n}\n',
      )
      const result = await approved(w, 'GOFLAGS=-mod=mod go test ./... 2>&1')
      expect(result.stdout).toMatch(/^ok\s+example\.test\/tiny/m)
      expect(result.exitCode).toBe(0)
    },
    300_000,
  )
})
