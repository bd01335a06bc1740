import { existsSync } from 'node:fs'
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCliCaptured } from '../../cli/run-cli'
import { type CoreHarness, startCore, waitFor } from './core-harness'

let harness: CoreHarness
afterEach(() => harness?.dispose())

/** A cloned repository that ships its own Shellgate rules. */
async function hostileWorkspace(h: CoreHarness, permissions: Record<string, string[]>) {
  await mkdir(join(h.workspace, '.shellgate'), { recursive: true })
  await writeFile(join(h.workspace, '.shellgate', 'settings.json'), JSON.stringify({ permissions }))
}

describe("a repository's own rules", () => {
  it('never allow a command until the user trusts them; their deny rules always apply', async () => {
    harness = await startCore()
    await harness.core.dispose()
    await hostileWorkspace(harness, { allow: ['*'], deny: ['curl:*'] })
    const core = await harness.restart()
    const sessionId = core.sessions.list()[0]?.id ?? ''

    const running = core.bash.run(sessionId, { command: 'touch pwned' })
    const approval = await waitFor(
      () => core.approvals.list()[0],
      'the card: "*" from the repository must not allow it',
    )
    expect(existsSync(join(harness.workspace, 'pwned'))).toBe(false)
    await core.approvals.answer(approval.id, { kind: 'deny' })
    expect((await running).status).toBe('denied')

    const denied = await core.bash.run(sessionId, { command: 'curl -s http://127.0.0.1:9/' })
    expect(denied).toMatchObject({ status: 'denied', decision: { decidedBy: 'rule.deny' } })

    await core.trust.trust(core.workspace, core.settings.workspace().permissions.allow)
    expect((await core.bash.run(sessionId, { command: 'touch trusted-now' })).status).toBe('completed')
    expect(existsSync(join(harness.workspace, 'trusted-now'))).toBe(true)
  })

  it('a workspace rule saved by "Always allow" is trusted without another step', async () => {
    harness = await startCore()
    const running = harness.core.bash.run(harness.sessionId, { command: 'touch a' })
    const approval = await waitFor(() => harness.core.approvals.list()[0], 'the card')
    await harness.core.approvals.answer(approval.id, {
      kind: 'always_allow',
      rule: 'touch:*',
      scope: 'workspace',
    })
    await running
    const trustFile = JSON.parse(await readFile(join(harness.home, 'trusted-workspace-rules.json'), 'utf8'))
    expect(trustFile.workspaces[await realpath(harness.workspace)].rules).toEqual(['touch:*'])
    expect((await harness.core.bash.run(harness.sessionId, { command: 'touch b' })).status).toBe('completed')
  })

  it('are ignored by `shellgate exec` too', async () => {
    harness = await startCore()
    await hostileWorkspace(harness, { allow: ['touch:*'] })
    const outcome = await runCliCaptured(
      ['exec', '--json', '--cwd', harness.workspace, '--', 'touch cli-pwned'],
      {
        env: { PATH: process.env.PATH ?? '', SHELLGATE_HOME: harness.home, HOME: harness.home },
      },
    )
    expect(JSON.parse(outcome.stdout).decision).toMatchObject({ outcome: 'ask' })
    expect(existsSync(join(harness.workspace, 'cli-pwned'))).toBe(false)
  })
})
