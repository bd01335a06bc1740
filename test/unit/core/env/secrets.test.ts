import { afterEach, describe, expect, it } from 'vitest'
import { sanitizeProcessEnvInPlace } from '../../../../src/main/core/env/sanitize-entry'
import { runProcess } from '../../../../src/main/core/exec'

const SECRET = 'AKIA-never-leaks-0123456789'

describe('secrets of the parent', () => {
  const saved = { ...process.env }
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key]
    Object.assign(process.env, saved)
  })

  it('AWS_SECRET_ACCESS_KEY and a sealed proxy in the parent never reach an argv child of runProcess', async () => {
    process.env.AWS_SECRET_ACCESS_KEY = SECRET
    process.env.HTTPS_PROXY = `http://user:${SECRET}@proxy:1`
    // The entry sanitiser runs first in the real binary; the argv child still starts from nothing.
    sanitizeProcessEnvInPlace(process.env, 'linux')
    const result = await runProcess(
      { file: '/usr/bin/env', args: [] },
      { timeoutMs: 10_000, maxOutputBytes: 1 << 20 },
    )
    expect(result.status).toBe('completed')
    expect(result.stdout).not.toContain(SECRET)
    const withPath = await runProcess(
      { file: '/usr/bin/env', args: [] },
      { env: { PATH: '/usr/bin:/bin' }, timeoutMs: 10_000, maxOutputBytes: 1 << 20 },
    )
    // Only what was passed, plus the port's own run tag.
    expect(withPath.stdout).toMatch(/^PATH=\/usr\/bin:\/bin\nSHELLGATE_RUN_ID=[0-9a-f-]+\n$/)
  })
})
