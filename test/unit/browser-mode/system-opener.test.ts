import { describe, expect, it } from 'vitest'
import { systemOpenerFor } from '../../../src/main/browser-mode/system-opener'

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
