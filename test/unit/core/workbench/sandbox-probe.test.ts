import { describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import { detectSandboxBackend } from '../../../../src/main/core/workbench/sandbox-probe'

const port = createExecutionPort()
const detectBackend = (options: { platform: NodeJS.Platform; bwrapPath?: string }) =>
  detectSandboxBackend(port, options)

describe('backend detection runs `true` in each profile', () => {
  it('the real bwrap works in both profiles', async () => {
    const status = await detectBackend({ platform: 'linux' })
    expect(status).toMatchObject({ backend: 'bubblewrap', path: '/usr/bin/bwrap', available: true })
    expect(status.profiles['read-only']).toEqual({ ok: true, error: null })
  })

  it('a missing bwrap is named, with what to install', async () => {
    const status = await detectBackend({ platform: 'linux', bwrapPath: '/nonexistent/bwrap' })
    expect(status.available).toBe(false)
    expect(status.message).toBe(
      'bubblewrap does not work here: /nonexistent/bwrap is missing (install the bubblewrap package)',
    )
  })

  it('a broken bwrap (a binary that fails) is reported with what it said', async () => {
    const status = await detectBackend({ platform: 'linux', bwrapPath: '/bin/false' })
    expect(status.available).toBe(false)
    expect(status.profiles['read-only'].error).toMatch(/^\/bin\/false failed in the read-only profile \(/)
  })

  it('Windows: no sandbox, said plainly, and nothing is run', async () => {
    const status = await detectBackend({ platform: 'win32' })
    expect(status).toMatchObject({
      backend: 'none',
      path: null,
      available: false,
      message: 'no sandbox: Windows has no backend in Shellgate; commands run unsandboxed',
    })
  })
})
