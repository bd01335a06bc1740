import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SandboxStatusSchema } from '../../../src/shared/ipc/domains/sandbox'
import { runCliCaptured } from './run-cli'

let dataDir: string
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'shellgate-sandbox-cli-'))
})
afterEach(() => rmSync(dataDir, { recursive: true, force: true }))
const env = () => ({ PATH: '/usr/bin:/bin', HOME: dataDir, SHELLGATE_HOME: dataDir })

describe('shellgate sandbox status', () => {
  it('--json: the real bwrap ran `true` in both profiles', async () => {
    const { code, stdout } = await runCliCaptured(['sandbox', 'status', '--json'], { env: env() })
    expect(code).toBe(0)
    const status = SandboxStatusSchema.parse(JSON.parse(stdout))
    expect(status.backend).toMatchObject({
      platform: 'linux',
      backend: 'bubblewrap',
      path: '/usr/bin/bwrap',
      available: true,
      profiles: { 'read-only': { ok: true, error: null }, 'workspace-write': { ok: true, error: null } },
    })
    expect(status).toMatchObject({ mode: 'auto', network: 'on', problems: [] })
  })

  it('names each bad sandbox setting', async () => {
    writeFileSync(
      join(dataDir, 'settings.json'),
      JSON.stringify({
        sandbox: { allowlist: ['registry.npmjs.org', 'http://x.com/'], toolCaches: ['~/no-such-cache'] },
      }),
    )
    const { code, stdout } = await runCliCaptured(['sandbox', 'status'], { env: env() })
    expect(code).toBe(0)
    expect(stdout).toContain(
      "Sandbox: auto: read-only (no network) for commands run without asking, workspace-write (network on, only through Shellgate's proxy) for approved ones",
    )
    expect(stdout).toContain('Problem: sandbox.allowlist: "http://x.com/" is not a domain')
    expect(stdout).toContain('Problem: sandbox.toolCaches: "~/no-such-cache" does not exist')
    expect(stdout).not.toContain('"registry.npmjs.org" is not a domain')
  })

  it('anything but `status` or `explain` is a usage error (exit 2)', async () => {
    const { code, stderr } = await runCliCaptured(['sandbox', 'stauts'], { env: env() })
    expect(code).toBe(2)
    expect(stderr).toContain('the subcommands are `status`, `explain` and `caches`')
  })
})

describe('shellgate sandbox explain', () => {
  let workspace: string
  beforeEach(() => {
    workspace = mkdtempSync(join('/var/tmp', 'shellgate-explain-ws-'))
    mkdirSync(join(workspace, '.git', 'objects'), { recursive: true })
    writeFileSync(join(workspace, '.git', 'HEAD'), 'ref: refs/heads/main\n')
    writeFileSync(join(workspace, '.git', 'config'), '[core]\n')
    writeFileSync(join(workspace, '.env'), 'KEY=1\n')
  })
  afterEach(() => rmSync(workspace, { recursive: true, force: true }))

  it('prints what each profile reads, writes and hides, with the rule behind each line', async () => {
    const { code, stdout } = await runCliCaptured(['sandbox', 'explain', '--cwd', workspace], { env: env() })
    expect(code).toBe(0)
    expect(stdout).toContain(`Profile read-only (commands that run without asking) for ${workspace}`)
    expect(stdout).toContain(`Profile workspace-write (approved and rule-allowed commands) for ${workspace}`)
    expect(stdout).toMatch(/\n {2}\/usr +system folder\n/)
    expect(stdout).toMatch(/\n {2}~ +the home folder, empty: reads are denied by default\n/)
    expect(stdout).toMatch(/\n {2}\/etc\/shadow +system secret: password hashes\n/)
    expect(stdout).toMatch(/\.env +a secret file name in the workspace \(read-only profile/)
    expect(stdout).toMatch(/\.git\/config +git: config can make git run programs/)
    // explain changes nothing: the missing sealed paths are not made.
    expect(existsSync(join(workspace, '.git', 'hooks'))).toBe(false)
  })

  it('--json --profile: one layout, every entry with its reason', async () => {
    const { code, stdout } = await runCliCaptured(
      ['sandbox', 'explain', '--profile', 'workspace-write', '--cwd', workspace, '--json'],
      { env: env() },
    )
    expect(code).toBe(0)
    const { profiles } = JSON.parse(stdout)
    expect(profiles).toHaveLength(1)
    expect(profiles[0]).toMatchObject({
      profile: 'workspace-write',
      workspace: { path: workspace, kind: 'dir' },
    })
    expect(profiles[0].protected).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: join(workspace, '.git', 'config') })]),
    )
    // Approved commands see the workspace's own .env (the person allowed `npm test`).
    expect(profiles[0].hidden.map((entry: { path: string }) => entry.path)).not.toContain(
      join(workspace, '.env'),
    )
    expect(profiles[0]).not.toHaveProperty('git')
  })

  it('a bad profile is a usage error', async () => {
    const { code, stderr } = await runCliCaptured(['sandbox', 'explain', '--profile', 'open'], { env: env() })
    expect(code).toBe(2)
    expect(stderr).toContain('--profile "open" is not a profile (use read-only or workspace-write)')
  })
})
