import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
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
    expect(stdout).toContain('Sandbox: auto: read-only for commands run without asking')
    expect(stdout).toContain('Problem: sandbox.allowlist: "http://x.com/" is not a domain')
    expect(stdout).toContain('Problem: sandbox.toolCaches: "~/no-such-cache" does not exist')
    expect(stdout).not.toContain('"registry.npmjs.org" is not a domain')
  })

  it('anything but `status` is a usage error (exit 2)', async () => {
    const { code, stderr } = await runCliCaptured(['sandbox', 'stauts'], { env: env() })
    expect(code).toBe(2)
    expect(stderr).toContain('the only subcommand is `status`')
  })
})
