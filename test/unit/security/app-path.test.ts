import { describe, expect, it } from 'vitest'
import { resolveAppPath } from '../../../src/main/security/app-path'

describe('resolveAppPath', () => {
  const root = '/srv/renderer'
  it.each([
    ['/', '/srv/renderer/index.html'],
    ['', '/srv/renderer/index.html'],
    ['/index.html', '/srv/renderer/index.html'],
    ['/assets/app-1.js', '/srv/renderer/assets/app-1.js'],
    ['/assets/../index.html', '/srv/renderer/index.html'],
    ['/a%20b.css', '/srv/renderer/a b.css'],
  ])('serves %s from inside the root', (path, expected) => {
    expect(resolveAppPath(root, path)).toBe(expected)
  })

  it.each([
    '/..',
    '/../secret',
    '/assets/../../secret',
    '/%2e%2e/secret',
    '/%2E%2E%2Fsecret',
    '/..%5csecret',
    '/C:/Windows/win.ini',
    '/../../etc/passwd',
    '/%00index.html',
    '/%E0%A4%A',
    '/a\\b',
  ])('refuses %s', (path) => {
    expect(resolveAppPath(root, path)).toBeNull()
  })
})
