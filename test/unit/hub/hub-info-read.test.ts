import { describe, expect, it } from 'vitest'
import { HubInfoSchema } from '../../../src/main/hub/hub-info'
import { wrongField } from '../../../src/main/hub/hub-info-read'

const good = {
  hubId: 'abcdefghijklmnopqrstuvwx',
  pid: 4242,
  version: '0.1.0',
  uiUrl: 'http://127.0.0.1:5173/',
  startedAt: '2026-12-01T00:00:00.000Z',
  home: '/home/me/.shellgate',
}

// The hook reads hub.json without zod (issue 20); the writer's schema is the spec it must match.
describe('run/hub.json is read by hand exactly as HubInfoSchema reads it', () => {
  it.each([
    ['a good file', good],
    ['no UI', { ...good, uiUrl: null }],
    ['a short hubId', { ...good, hubId: 'short' }],
    ['a hubId with a slash', { ...good, hubId: 'abcdefghijklmnop/rstuvwx' }],
    ['pid 0', { ...good, pid: 0 }],
    ['a fractional pid', { ...good, pid: 1.5 }],
    ['a pid as text', { ...good, pid: '12' }],
    ['a UI on another host', { ...good, uiUrl: 'http://evil.example:80/' }],
    ['a UI with a login code', { ...good, uiUrl: 'http://127.0.0.1:1/#code=x' }],
    ['a long version', { ...good, version: 'x'.repeat(101) }],
    ['an extra key', { ...good, token: 'secret' }],
    ['a missing key', { hubId: good.hubId, pid: 1, version: '1', uiUrl: null, startedAt: 'x' }],
    ['an array', [good]],
    ['null', null],
  ])('%s', (_name, json) => {
    expect(wrongField(json) === null).toBe(HubInfoSchema.safeParse(json).success)
  })
})
