import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createExecutionPort } from '../../../../src/main/core/exec'
import type { SandboxService } from '../../../../src/main/core/sandbox/sandbox-service'
import { type SandboxWorld, TEST_PATH } from './sandbox-fixture'

/** Real git in real bwrap: the person's git outside, an approved command inside (prepare → run → settle). */
const port = createExecutionPort()
const IDENTITY = {
  GIT_AUTHOR_NAME: 'Agent',
  GIT_AUTHOR_EMAIL: 'agent@example.test',
  GIT_COMMITTER_NAME: 'Agent',
  GIT_COMMITTER_EMAIL: 'agent@example.test',
}
export const gitEnv = (w: SandboxWorld) => ({
  PATH: TEST_PATH,
  HOME: w.home,
  GIT_CONFIG_NOSYSTEM: '1',
  ...IDENTITY,
})

/** The person's own git, outside any sandbox. */
export function hostGit(w: SandboxWorld, cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'protocol.file.allow=always', ...args], {
    cwd,
    env: gitEnv(w),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

/** A real repository as the workspace, with an existing submodule `lib` one commit behind. */
export function realRepository(w: SandboxWorld): { sub: string } {
  rmSync(w.workspace, { recursive: true, force: true })
  const sub = join(w.root, 'sub')
  mkdirSync(sub)
  hostGit(w, sub, 'init', '-q', '-b', 'main')
  writeFileSync(join(sub, 'a'), 'a\n')
  hostGit(w, sub, 'add', 'a')
  hostGit(w, sub, 'commit', '-qm', 'one')
  mkdirSync(w.workspace)
  hostGit(w, w.workspace, 'init', '-q', '-b', 'main')
  writeFileSync(join(w.workspace, 'file'), 'first\n')
  hostGit(w, w.workspace, 'add', 'file')
  hostGit(w, w.workspace, 'commit', '-qm', 'first')
  hostGit(w, w.workspace, 'submodule', 'add', '-q', sub, 'lib')
  hostGit(w, w.workspace, 'commit', '-qm', 'lib')
  writeFileSync(join(sub, 'b'), 'b\n')
  hostGit(w, sub, 'add', 'b')
  hostGit(w, sub, 'commit', '-qm', 'two')
  const lib = join(w.workspace, 'lib')
  hostGit(w, lib, 'fetch', '-q')
  hostGit(w, lib, 'checkout', '-q', 'origin/main')
  hostGit(w, w.workspace, 'commit', '-qam', 'lib at two')
  hostGit(w, lib, 'checkout', '-q', 'HEAD~1')
  return { sub }
}

/** Runs a command in a prepared sandbox, with git's identity and the world's home. */
export function runPrepared(
  w: SandboxWorld,
  prepared: Awaited<ReturnType<SandboxService['prepare']>>,
  command: string,
  cwd = w.workspace,
) {
  if (prepared.kind !== 'run' || !prepared.sandbox) throw new Error('the sandbox did not prepare a run')
  return port.execute({
    command: { mode: 'shell', command, shellProfile: 'posix-bash' },
    cwd,
    env: gitEnv(w),
    timeoutMs: 30_000,
    sandbox: prepared.sandbox,
  })
}

/** prepare → run → settle, as the Bash tool does for an approved command. */
export async function approved(w: SandboxWorld, script: string) {
  const prepared = await w.service().prepare(w.prepareInput('workspace-write'))
  if (prepared.kind !== 'run') throw new Error('the sandbox did not prepare a run')
  try {
    const result = await runPrepared(w, prepared, script)
    return { result, notes: prepared.settle() }
  } finally {
    await prepared.release()
  }
}
