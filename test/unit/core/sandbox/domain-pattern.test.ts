import { describe, expect, it } from 'vitest'
import { onList } from '../../../../src/main/core/sandbox/domain-pattern'

/**
 * Issue 24.2: a mutation that made `*.example.com` admit `evilexample.com` and `example.com` survived.
 * The README says a `*.` entry is "for subdomains": the label boundary and the bare name both matter.
 */
describe('network allowlist patterns', () => {
  it('*.example.com admits subdomains at any depth, and nothing that merely ends in the same letters', () => {
    const list = ['*.example.com']
    expect(onList('api.example.com', list)).toBe(true)
    expect(onList('a.b.example.com', list)).toBe(true)
    expect(onList('evilexample.com', list)).toBe(false)
    expect(onList('example.com', list)).toBe(false)
    expect(onList('example.com.evil.test', list)).toBe(false)
    expect(onList('xexample.com', list)).toBe(false)
  })

  it('an exact entry admits that name only, whatever its case or trailing dot', () => {
    expect(onList('registry.npmjs.org', ['Registry.NPMJS.org.'])).toBe(true)
    expect(onList('evil-registry.npmjs.org', ['registry.npmjs.org'])).toBe(false)
    expect(onList('registry.npmjs.org.evil.test', ['registry.npmjs.org'])).toBe(false)
  })

  it('an entry that is not a domain admits nothing', () => {
    expect(onList('example.com', ['*'])).toBe(false)
    expect(onList('example.com', ['*example.com'])).toBe(false)
    expect(onList('127.0.0.1', ['127.0.0.1'])).toBe(false)
  })
})
