import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BackendStatus } from '../../../../src/main/core/sandbox/backend-status'
import { type CoreHarness, startCore, waitFor } from './core-harness'

/** The Bash path fills the sandbox profile from the verdict and the settings (issue 12), for real. */
let harness: CoreHarness | undefined
const outsideDirs: string[] = []
afterEach(async () => {
  await harness?.dispose()
  harness = undefined
  for (const dir of outsideDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** Outside the workspace and outside /tmp (which every sandbox replaces with its own). */
function outsideDir(): string {
  const dir = mkdtempSync('/var/tmp/shellgate-outside-')
  outsideDirs.push(dir)
  return dir
}

function auditLines(home: string) {
  return readFileSync(join(home, 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
}

const NO_BACKEND: BackendStatus = {
  platform: 'linux',
  backend: 'bubblewrap',
  path: '/nonexistent/bwrap',
  available: false,
  profiles: {
    'read-only': { ok: false, error: '/nonexistent/bwrap is missing (install the bubblewrap package)' },
    'workspace-write': { ok: false, error: '/nonexistent/bwrap is missing (install the bubblewrap package)' },
  },
  message: 'bubblewrap does not work here: /nonexistent/bwrap is missing (install the bubblewrap package)',
}

async function approveOnce(h: CoreHarness, unsandboxed = false) {
  const approval = await waitFor(() => h.core.approvals.list()[0], 'a pending approval')
  const answer = await h.core.approvals.answer(approval.id, {
    kind: 'allow_once',
    ...(unsandboxed ? { unsandboxed } : {}),
  })
  return { approval, answer }
}

describe('the Bash path runs each command in the profile its decision earns', () => {
  // Two walls: the verdict asks before a recursive read reaches a secret file at any depth (issue
  // 21.4), and the read-only sandbox hides those files anyway (deny-by-default-real.test.ts runs
  // a read-only command against a nested .env in real bwrap).
  it("a recursive read over the project's .env files asks; denied, nothing runs; an approved cat reads them", async () => {
    harness = await startCore()
    const { workspace, core, sessionId } = harness
    mkdirSync(join(workspace, 'packages', 'api'), { recursive: true })
    mkdirSync(join(workspace, 'node_modules', 'dep'), { recursive: true })
    writeFileSync(join(workspace, '.env'), 'API_TOKEN=root-secret\n')
    writeFileSync(join(workspace, 'packages', 'api', '.env.local'), 'API_TOKEN=nested-secret\n')
    writeFileSync(join(workspace, 'notes.txt'), 'API_TOKEN is read from .env\n')
    const grep = core.bash.run(sessionId, { command: 'grep -rn API_TOKEN .' })
    const card = await waitFor(() => core.approvals.list()[0], 'the card for the recursive read')
    expect(JSON.stringify(card.why)).toContain('.env')
    await core.approvals.answer(card.id, { kind: 'deny', message: 'not the secrets' })
    expect(await grep).toMatchObject({ status: 'denied' })
    expect((await grep).content).toContain('not the secrets')

    const approved = core.bash.run(sessionId, { command: 'cat .env packages/api/.env.local > both.txt' })
    await approveOnce(harness)
    expect(await approved).toMatchObject({ status: 'completed', sandbox: 'workspace-write' })
    expect(readFileSync(join(workspace, 'both.txt'), 'utf8')).toBe(
      'API_TOKEN=root-secret\nAPI_TOKEN=nested-secret\n',
    )
  })

  it('listing SHELLGATE_HOME asks first, and approved, it reads as empty to the command', async () => {
    harness = await startCore()
    const running = harness.core.bash.run(harness.sessionId, { command: `ls -A ${harness.home}` })
    // Shellgate's own folder is a secrets location to the classifier (issue 13 class 6)…
    const { approval } = await approveOnce(harness)
    expect(JSON.stringify(approval.why)).toContain('secrets location')
    const call = await running
    // …and approved, the sandbox still hides it.
    expect(call).toMatchObject({ status: 'completed', sandbox: 'workspace-write' })
    // Only the mount points of the executor's own files (snapshot, cwd capture) show through.
    const host = readdirSync(harness.home)
    expect(host).toContain('sessions')
    expect(call.content.split('\n')).toEqual(['exec'])
    expect(auditLines(harness.home).at(-1)).toMatchObject({
      decidedBy: 'allowed_once',
      sandbox: 'workspace-write',
    })
  })

  it('the shell-init snapshot and the cwd capture work from inside a hidden SHELLGATE_HOME', async () => {
    harness = await startCore()
    writeFileSync(join(harness.home, '.bash_profile'), 'greet_from_rc() { echo rc-function; }\n')
    mkdirSync(join(harness.workspace, 'sub'))
    const moved = await harness.core.bash.run(harness.sessionId, { command: 'cd sub' })
    expect(moved.sandbox).toBe('read-only')
    expect(harness.core.sessions.get(harness.sessionId).cwd).toBe(join(harness.workspace, 'sub'))
    const running = harness.core.bash.run(harness.sessionId, { command: 'greet_from_rc' })
    await approveOnce(harness)
    const call = await running
    expect(call).toMatchObject({ status: 'completed', sandbox: 'workspace-write', content: 'rc-function' })
  })

  it('the card shows workspace-write; once approved, a write outside the workspace fails with one plain line', async () => {
    harness = await startCore()
    const outside = outsideDir()
    const running = harness.core.bash.run(harness.sessionId, {
      command: `touch inside && touch ${outside}/x`,
    })
    const { approval } = await approveOnce(harness)
    expect(approval.sandbox).toEqual({ profile: 'workspace-write', note: null, unsandboxedAllowed: true })
    const call = await running
    expect(call.sandbox).toBe('workspace-write')
    expect(existsSync(join(harness.workspace, 'inside'))).toBe(true)
    expect(existsSync(join(outside, 'x'))).toBe(false)
    // Reads are denied by default: the folder outside is not even there inside.
    expect(call.content).toContain(`${outside}/x': No such file or directory`)
    expect(call.content.split('\n').at(-1)).toBe(
      `blocked by the sandbox: write outside the workspace (${outside}/x). To go further, approve the command unsandboxed.`,
    )
  })

  it('"run unsandboxed, this once" runs it outside the sandbox and the audit line says so', async () => {
    harness = await startCore()
    const outside = outsideDir()
    const running = harness.core.bash.run(harness.sessionId, { command: `touch ${outside}/x` })
    await approveOnce(harness, true)
    const call = await running
    expect(call).toMatchObject({ status: 'completed', sandbox: 'off' })
    expect(existsSync(join(outside, 'x'))).toBe(true)
    expect(auditLines(harness.home).at(-1)).toMatchObject({
      decidedBy: 'allowed_once',
      sandbox: 'off',
      unsandboxedByPerson: true,
    })
  })

  it('workspace-write with the network off: a connect fails and the result says the network is off', async () => {
    harness = await startCore()
    await harness.core.settings.updateUser({ sandbox: { network: 'off' } })
    const running = harness.core.bash.run(harness.sessionId, { command: 'curl -sS http://example.invalid/' })
    await approveOnce(harness)
    const call = await running
    expect(call.content.split('\n').at(-1)).toMatch(
      /^blocked by the sandbox: the network is off for this command/,
    )
  })

  it('auto without a working backend runs unsandboxed and says so in the result', async () => {
    harness = await startCore({ sandbox: { detect: async () => NO_BACKEND } })
    const call = await harness.core.bash.run(harness.sessionId, { command: 'echo hi' })
    expect(call).toMatchObject({ status: 'completed', sandbox: 'off' })
    expect(call.content).toBe(`hi\nSandbox: ran without a sandbox: ${NO_BACKEND.message}`)
  })

  it('strict without a working backend refuses the command with the reason, and offers no unsandboxed run', async () => {
    harness = await startCore({ sandbox: { detect: async () => NO_BACKEND } })
    await harness.core.settings.updateUser({ sandbox: { mode: 'strict' } })
    const h = harness
    const pending = h.core.bash.run(h.sessionId, { command: 'touch made' })
    const approval = await waitFor(() => h.core.approvals.list()[0], 'a pending approval')
    expect(approval.sandbox).toMatchObject({ profile: 'off', unsandboxedAllowed: false })
    expect(
      await h.core.approvals.answer(approval.id, { kind: 'allow_once', unsandboxed: true }),
    ).toMatchObject({
      ok: false,
      field: 'unsandboxed',
    })
    await h.core.approvals.answer(approval.id, { kind: 'allow_once' })
    const refused = await pending
    expect(refused).toMatchObject({ status: 'denied', isError: true })
    expect(refused.content).toMatch(/^Not run: sandbox mode is strict and no sandbox can run here/)
    expect(existsSync(join(h.workspace, 'made'))).toBe(false)
  })

  it('a bad allowlist entry and a missing cache are named in the result', async () => {
    harness = await startCore()
    await harness.core.settings.updateUser({
      sandbox: { allowlist: ['not a domain'], toolCaches: ['/nonexistent/cache'] },
    })
    const call = await harness.core.bash.run(harness.sessionId, { command: 'echo hi' })
    expect(call.content.split('\n')).toEqual([
      'hi',
      'Sandbox: sandbox.allowlist: "not a domain" is not a domain (write a host name such as registry.npmjs.org or *.github.com); it is ignored',
      'Sandbox: sandbox.toolCaches: "/nonexistent/cache" does not exist, so it is not made writable; create it or remove the entry',
    ])
  })
})
