import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openInSystemBrowser, systemOpenerFor } from '../../../src/main/browser-mode/system-opener'

const url = 'http://127.0.0.1:4000/#code=a&b%c'

describe('systemOpenerFor', () => {
  it('uses xdg-open from PATH on Linux', () => {
    const opener = systemOpenerFor(
      url,
      'linux',
      { PATH: '/nope:/usr/bin' },
      (path) => path === '/usr/bin/xdg-open',
    )
    expect(opener).toEqual({ file: '/usr/bin/xdg-open', args: [url] })
  })

  it('says there is none on a headless Linux box', () => {
    expect(systemOpenerFor(url, 'linux', { PATH: '/usr/bin' }, () => false)).toBeNull()
  })

  it('uses open on macOS', () => {
    expect(systemOpenerFor(url, 'darwin', {})).toEqual({ file: '/usr/bin/open', args: [url] })
  })

  it('uses rundll32 from SystemRoot on Windows, passing the URL as one argument', () => {
    expect(systemOpenerFor(url, 'win32', { SystemRoot: 'D:\\Win' })).toEqual({
      file: 'D:\\Win\\System32\\rundll32.exe',
      args: ['url.dll,FileProtocolHandler', url],
    })
  })
})

describe('openInSystemBrowser (issue 14.11: --open says so when no browser could be opened)', () => {
  /** A real xdg-open stand-in on PATH: the box's own one may open a real browser. */
  async function withOpener(script: string, run: (env: NodeJS.ProcessEnv) => Promise<void>) {
    const dir = await mkdtemp(join(tmpdir(), 'shellgate-opener-'))
    try {
      await writeFile(join(dir, 'xdg-open'), `#!/bin/sh\n${script}\n`)
      await chmod(join(dir, 'xdg-open'), 0o755)
      await run({ PATH: `${dir}:/usr/bin:/bin` })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }

  it('reports an opener that exits non-zero (no browser) as a failure with its exit code', async () => {
    await withOpener('exit 3', async (env) => {
      const result = await openInSystemBrowser(url, { platform: 'linux', env })
      expect(result).toEqual({
        ok: false,
        reason: expect.stringMatching(/^no browser could be opened \(.*xdg-open exited with 3\)$/),
      })
    })
  })

  it('reports an opener that exits 0 as opened', async () => {
    await withOpener('exit 0', async (env) => {
      expect(await openInSystemBrowser(url, { platform: 'linux', env })).toEqual({ ok: true })
    })
  })
})
