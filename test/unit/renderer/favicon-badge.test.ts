import { describe, expect, it } from 'vitest'
import { badgedIconHref } from '../../../src/renderer/notifications/favicon-badge'

describe('badgedIconHref', () => {
  it('is the plain icon with nothing waiting', () => {
    expect(badgedIconHref(0, './favicon.svg')).toBe('./favicon.svg')
  })
  it('draws the count, and 9+ past nine, as an SVG data URL the CSP allows', () => {
    const three = decodeURIComponent(badgedIconHref(3, './favicon.svg'))
    expect(three.startsWith('data:image/svg+xml,<svg')).toBe(true)
    expect(three).toContain('>3</text>')
    expect(decodeURIComponent(badgedIconHref(64, './favicon.svg'))).toContain('>9+</text>')
  })
})
