import { describe, expect, it } from 'vitest'
import { findNoProxyMatch, parseNoProxyList } from '../../../../src/main/core/network/no-proxy'

/** [NO_PROXY list, URL, entry that matches or null] — the whole table the Settings help text describes. */
const TABLE: [string, string, string | null][] = [
  ['*', 'https://anything.example/', '*'],
  ['example.com', 'http://example.com/', 'example.com'],
  ['example.com', 'http://api.example.com/', 'example.com'],
  ['example.com', 'http://notexample.com/', null],
  ['EXAMPLE.com', 'http://Example.COM./', 'example.com'],
  ['.example.com', 'http://api.example.com/', '.example.com'],
  ['.example.com', 'http://example.com/', null],
  ['*.example.com', 'http://deep.api.example.com/', '*.example.com'],
  ['*.example.com', 'http://example.com/', null],
  ['example.com:8080', 'http://example.com:8080/', 'example.com:8080'],
  ['example.com:8080', 'http://example.com/', null],
  ['example.com:443', 'https://example.com/', 'example.com:443'],
  ['example.com:80', 'http://example.com/', 'example.com:80'],
  ['10.1.2.3', 'http://10.1.2.3:9000/', '10.1.2.3'],
  ['10.1.2.3:9000', 'http://10.1.2.3:9001/', null],
  ['10.0.0.0/8', 'http://10.200.0.1/', '10.0.0.0/8'],
  ['10.0.0.0/8', 'http://11.0.0.1/', null],
  ['::1', 'http://[::1]:3000/', '::1'],
  ['[::1]', 'http://[::1]/', '[::1]'],
  ['[::1]:3000', 'http://[::1]:3000/', '[::1]:3000'],
  ['[::1]:3000', 'http://[::1]:3001/', null],
  ['[0:0::1]:3000', 'http://[::1]:3000/', '[0:0::1]:3000'],
  ['fd00::/8', 'http://[fd12::5]/', 'fd00::/8'],
  ['a.test, b.test  c.test', 'http://c.test/', 'c.test'],
  ['a.test,,b.test', 'http://x.b.test/', 'b.test'],
]

describe('NO_PROXY matching', () => {
  it.each(TABLE)('%s × %s → %s', (list, url, expected) => {
    const match = findNoProxyMatch(new URL(url), parseNoProxyList(list, 'network.noProxy'))
    expect(match?.text ?? null).toBe(expected)
  })

  it('drops entries it cannot read in lenient mode (the sealed shell NO_PROXY) and keeps the rest', () => {
    const patterns = parseNoProxyList('http://x/, ok.test, host:0', 'NO_PROXY (sealed)', false)
    expect(patterns.map((p) => p.text)).toEqual(['ok.test'])
  })

  it.each(['http://x/', 'a b/c', '*foo', 'ex ample'.replace(' ', '!'), 'host:port', '[::1', '300.0.0.0/8'])(
    'strict mode names the setting and the entry for %s',
    (entry) => {
      expect(() => parseNoProxyList(entry, 'network.noProxy')).toThrowError(
        /^network\.noProxy: ".*" is not a NO_PROXY entry/,
      )
    },
  )
})
