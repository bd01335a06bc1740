import { describe, expect, it } from 'vitest'
import { parseBashToolInput } from '../../../../../src/main/core/bash/tool/input-schema'
import {
  BASH_MAX_OUTPUT_LENGTH,
  resolveMaxOutputLength,
} from '../../../../../src/main/core/bash/tool/output-limit'
import {
  BASH_DEFAULT_TIMEOUT_MS,
  BASH_MAX_TIMEOUT_MS,
  effectiveTimeoutMs,
  resolveTimeoutPolicy,
} from '../../../../../src/main/core/bash/tool/timeout-policy'

describe('Bash tool input', () => {
  it('accepts the five fields, with string numbers and string booleans', () => {
    expect(
      parseBashToolInput({
        command: 'ls',
        timeout: '5000',
        description: 'List files',
        run_in_background: 'yes',
        dangerouslyDisableSandbox: 'off',
      }),
    ).toEqual({
      command: 'ls',
      timeout: 5000,
      description: 'List files',
      run_in_background: true,
      dangerouslyDisableSandbox: false,
    })
  })

  it.each([
    ['true', true],
    ['YES', true],
    ['1', true],
    [' on ', true],
    ['false', false],
    ['no', false],
    ['0', false],
    ['off', false],
    [true, true],
    [false, false],
  ])('run_in_background %j → %s', (value, expected) => {
    expect(parseBashToolInput({ command: 'x', run_in_background: value }).run_in_background).toBe(expected)
  })

  it.each([
    [{ command: 'ls', extra: 1 }, 'Unrecognized key'],
    [{}, 'command'],
    [{ command: 1 }, 'command'],
    [{ command: 'ls', timeout: -1 }, 'timeout must be whole milliseconds'],
    [{ command: 'ls', timeout: '1.5' }, 'timeout must be whole milliseconds'],
    [{ command: 'ls', timeout: 'soon' }, 'timeout must be whole milliseconds'],
    [{ command: 'ls', run_in_background: 'maybe' }, 'expected a boolean'],
    [null, 'invalid Bash tool input'],
  ])('%j is refused (%s)', (input, message) => {
    expect(() => parseBashToolInput(input)).toThrow(message)
  })
})

describe('timeout policy (seed 003)', () => {
  const defaults = resolveTimeoutPolicy({})

  it.each([
    [undefined, BASH_DEFAULT_TIMEOUT_MS],
    [0, BASH_DEFAULT_TIMEOUT_MS],
    [5_000, 5_000],
    [600_000, 600_000],
    [900_000, BASH_MAX_TIMEOUT_MS],
  ])('requested %s → %s ms', (requested, expected) => {
    expect(effectiveTimeoutMs(requested, defaults)).toBe(expected)
  })

  it('reads BASH_DEFAULT_TIMEOUT_MS and BASH_MAX_TIMEOUT_MS; the maximum never drops below the default', () => {
    expect(resolveTimeoutPolicy({ BASH_DEFAULT_TIMEOUT_MS: '30000', BASH_MAX_TIMEOUT_MS: '60000' })).toEqual({
      defaultMs: 30_000,
      maxMs: 60_000,
    })
    expect(resolveTimeoutPolicy({ BASH_DEFAULT_TIMEOUT_MS: '300000', BASH_MAX_TIMEOUT_MS: '1000' })).toEqual({
      defaultMs: 300_000,
      maxMs: 300_000,
    })
    expect(resolveTimeoutPolicy({ BASH_DEFAULT_TIMEOUT_MS: 'abc', BASH_MAX_TIMEOUT_MS: '0' })).toEqual({
      defaultMs: BASH_DEFAULT_TIMEOUT_MS,
      maxMs: BASH_MAX_TIMEOUT_MS,
    })
  })

  it('BASH_MAX_OUTPUT_LENGTH raises the inline limit up to 150000 only', () => {
    expect(resolveMaxOutputLength({})).toBe(BASH_MAX_OUTPUT_LENGTH)
    expect(resolveMaxOutputLength({ BASH_MAX_OUTPUT_LENGTH: '80000' })).toBe(80_000)
    expect(resolveMaxOutputLength({ BASH_MAX_OUTPUT_LENGTH: '999999' })).toBe(150_000)
    expect(resolveMaxOutputLength({ BASH_MAX_OUTPUT_LENGTH: '-5' })).toBe(BASH_MAX_OUTPUT_LENGTH)
  })
})
