import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCliCaptured } from './run-cli'

/** `shellgate exec` runs through the same sandbox choice as the app (issue 12), for real. */
let root: string
let home: string
let workspace: string
beforeEach(() => {
  // Not under /tmp: the sandbox's private /tmp would hide the fixture on its own.
  root = mkdtempSync('/var/tmp/shellgate-exec-sandbox-')
  home = join(root, 'home')
  workspace = join(root, 'ws')
  mkdirSync(join(home, '.ssh'), { recursive: true })
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n')
  mkdirSync(workspace)
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const exec = async (argv: string[]) => {
  const env = {
    PATH: '/usr/bin:/bin',
    HOME: home,
    SHELL: '/bin/bash',
    SHELLGATE_HOME: join(home, '.shellgate'),
  }
  const outcome = await runCliCaptured(['exec', '--json', '--cwd', workspace, ...argv], {
    env,
    cwd: workspace,
  })
  return JSON.parse(outcome.stdout)
}

describe('shellgate exec in the sandbox', () => {
  it('reading ~/.ssh asks first; allowed anyway (yolo), the sandbox still hides it and says why', async () => {
    // The first wall: a read of a secrets location is not run without asking (issue 13 class 6).
    const asked = await exec(['--', `cat ${home}/.ssh/id_ed25519`])
    expect(asked.decision).toMatchObject({ outcome: 'ask' })
    expect(JSON.stringify(asked)).not.toContain('PRIVATE KEY')
    // The second wall: even when the mode lets it run, the OS hides the folder.
    const result = await exec(['--mode', 'yolo', '--', `cat ${home}/.ssh/id_ed25519`])
    expect(result.status).toBe('failed')
    expect(result.stdout).not.toContain('PRIVATE KEY')
    expect(result.content.split('\n').at(-1)).toBe(
      'blocked by the sandbox: ~/.ssh/id_ed25519 is a secret, never mounted in the sandbox. To go further, approve the command unsandboxed.',
    )
  })

  it('a command the mode allows runs workspace-write: the workspace is writable, outside is not; the audit line names the profile', async () => {
    const outside = join(root, 'outside')
    mkdirSync(outside)
    const result = await exec(['--mode', 'yolo', '--', `touch made && touch ${outside}/x`])
    expect(existsSync(join(workspace, 'made'))).toBe(true)
    expect(existsSync(join(outside, 'x'))).toBe(false)
    expect(result.content.split('\n').at(-1)).toBe(
      `blocked by the sandbox: write outside the workspace (${outside}/x). To go further, approve the command unsandboxed.`,
    )
    const audit = readFileSync(join(home, '.shellgate', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
    expect(JSON.parse(audit.at(-1)!)).toMatchObject({ decidedBy: 'mode', sandbox: 'workspace-write' })
  })
})
