import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCliCaptured } from './run-cli'

// Issue 22.8: `shellgate classify` shows what the person's rules do with a command, and which rules.

let home: string
let workspace: string
beforeEach(async () => {
  home = await realpath(await mkdtemp(join(tmpdir(), 'sg-classify-home-')))
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'sg-classify-ws-')))
  await writeFile(
    join(home, 'settings.json'),
    JSON.stringify({ permissions: { allow: ['npm test:*'], deny: ['rm -rf:*'], ask: [] } }),
  )
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
  await rm(workspace, { recursive: true, force: true })
})

const classify = (args: string[]) =>
  runCliCaptured(['classify', ...args], {
    env: { PATH: process.env.PATH ?? '', SHELLGATE_HOME: home, HOME: home },
    cwd: workspace,
  })

describe('shellgate classify shows the rules that apply', () => {
  it('an allow rule covering the write, with its file; --json and text', async () => {
    const json = await classify(['--json', 'cd sub && npm test -- --watch=false'])
    expect(json.code).toBe(0)
    const verdict = JSON.parse(json.stdout)
    expect(verdict.readOnly).toBe(false)
    expect(verdict.decision).toMatchObject({
      outcome: 'allow',
      rules: [{ behavior: 'allow', rule: 'npm test:*', source: 'user', file: join(home, 'settings.json') }],
      untrustedWorkspaceRules: [],
    })
    const text = await classify(['npm test'])
    expect(text.stdout).toContain('with your rules here: allow')
    expect(text.stdout).toContain(
      `allow rule npm test:*  (user, ${join(home, 'settings.json')}; matched: npm test)`,
    )
    expect(text.stdout).not.toContain('permission-safe')
  })

  it('a deny rule found behind a wrapper; no rule at all asks and names none', async () => {
    const denied = JSON.parse((await classify(['--json', 'sudo rm -rf build'])).stdout)
    expect(denied.decision).toMatchObject({
      outcome: 'deny',
      rules: [{ behavior: 'deny', rule: 'rm -rf:*' }],
    })
    const asked = JSON.parse((await classify(['--json', 'touch x'])).stdout)
    expect(asked.decision).toMatchObject({ outcome: 'ask', rules: [] })
    const read = JSON.parse((await classify(['--json', 'ls'])).stdout)
    expect(read.decision).toMatchObject({ outcome: 'allow', rules: [] })
  })

  it("a repository's own allow rule is shown as not counted until trusted", async () => {
    const { mkdir } = await import('node:fs/promises')
    await mkdir(join(workspace, '.shellgate'))
    await writeFile(
      join(workspace, '.shellgate', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['make:*'] } }),
    )
    const verdict = JSON.parse((await classify(['--json', 'make all'])).stdout)
    expect(verdict.decision).toMatchObject({ outcome: 'ask', rules: [], untrustedWorkspaceRules: ['make:*'] })
  })
})
