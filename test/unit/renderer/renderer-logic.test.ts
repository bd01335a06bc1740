import { describe, expect, it, vi } from 'vitest'
import { createAnsiDocument, CHECKPOINT_LINES } from '../../../src/renderer/ansi/ansi-document'
import { paletteRgb } from '../../../src/renderer/ansi/ansi-colors'
import { lineText, parseAnsi } from '../../../src/renderer/ansi/parse-ansi'
import { createLatestByKeyBuffer } from '../../../src/renderer/events/latest-by-key-buffer'
import { fieldErrorsFromRpc } from '../../../src/renderer/forms/field-errors'
import { visibleWindow } from '../../../src/renderer/output/visible-window'
import { validateCommandForm } from '../../../src/renderer/session/command-form-values'
import { RpcError } from '../../../src/shared/ipc/errors'

describe('parseAnsi', () => {
  it('turns SGR into styles and drops every other escape', () => {
    const lines = parseAnsi(
      '\x1b[31mred\x1b[0m plain\n\x1b[1;38;5;208mX\x1b[22;39m\x1b]8;;http://x\x07link\x1b]8;;\x07\x1b[2K\r\nnext\rover\n',
    )
    expect(lines).toHaveLength(3)
    expect(lineText(lines[0]!)).toBe('red plain')
    expect(lines[0]![0]!.style.fg).toEqual({ kind: 'palette', index: 1 })
    expect(lines[0]![1]!.style.fg).toBeNull()
    expect(lineText(lines[1]!)).toBe('Xlink')
    expect(lines[1]![0]!.style).toMatchObject({ bold: true, fg: { kind: 'palette', index: 208 } })
    expect(lines[1]![1]!.style.bold).toBe(false)
    expect(lineText(lines[2]!)).toBe('over')
  })
  it('clamps truecolour and strips control characters', () => {
    expect(parseAnsi('\x1b[38;2;1;2;300mZ')[0]![0]!.style.fg).toEqual({ kind: 'rgb', r: 1, g: 2, b: 255 })
    expect(lineText(parseAnsi('a\x00b\x07c\x1b(Bd')[0]!)).toBe('abcd')
    expect(paletteRgb(196)).toEqual([255, 0, 0])
  })
})

describe('createAnsiDocument', () => {
  it('gives any window exactly what a whole parse gives, styles carried across checkpoints', () => {
    const text = `${Array.from({ length: 2000 }, (_, i) => `${i === 300 ? '\x1b[31m' : i === 700 ? '\x1b[0m' : ''}l${i}${i === 900 ? '\rover' : ''}`).join('\n')}\n`
    const doc = createAnsiDocument(text)
    const whole = parseAnsi(text)
    expect(doc.lineCount).toBe(whole.length)
    for (const [a, b] of [
      [0, 10],
      [250, 270],
      [CHECKPOINT_LINES * 2 + 5, CHECKPOINT_LINES * 3 + 7],
      [895, 905],
      [1990, 2500],
    ] as const)
      expect(doc.lines(a, b)).toEqual(whole.slice(a, b))
  })
})

describe('fieldErrorsFromRpc', () => {
  it('puts invalid_input next to the most specific known field', () => {
    expect(
      fieldErrorsFromRpc(new RpcError('invalid_input', 'bash.run: timeout: must be a number'), {
        timeout: 'timeout',
      }),
    ).toEqual({ timeout: 'must be a number' })
    expect(
      fieldErrorsFromRpc(new RpcError('invalid_input', 'settings.setNetwork: network.httpProxy: bad'), {
        httpProxy: 'httpProxy',
      }),
    ).toEqual({ httpProxy: 'bad' })
    expect(fieldErrorsFromRpc(new RpcError('invalid_input', 'bash.run: constructor: x'), {})).toEqual({
      form: 'constructor: x',
    })
    expect(
      fieldErrorsFromRpc(new RpcError('internal', 'bash.run failed: x'), { timeout: 'timeout' }),
    ).toEqual({ form: 'bash.run failed: x' })
  })
})

describe('validateCommandForm', () => {
  it('refuses empty, too long and non-numeric input, and builds the tool call otherwise', () => {
    expect(validateCommandForm({ command: ' ', description: '', timeout: '', background: false }).ok).toBe(
      false,
    )
    expect(
      validateCommandForm({ command: 'x'.repeat(100_001), description: '', timeout: '', background: false })
        .ok,
    ).toBe(false)
    expect(
      validateCommandForm({ command: 'ls', description: '', timeout: '12a', background: false }),
    ).toMatchObject({ ok: false, errors: { timeout: expect.stringContaining('12a') } })
    expect(
      validateCommandForm({ command: 'ls', description: ' d ', timeout: '500', background: true }),
    ).toEqual({ ok: true, call: { command: 'ls', description: 'd', timeout: 500, run_in_background: true } })
  })
})

describe('coalescing and windowing', () => {
  it('flushes only the newest value per key, once per interval', () => {
    vi.useFakeTimers()
    const batches: Array<Map<string, number>> = []
    const buffer = createLatestByKeyBuffer<string, number>((batch) => batches.push(batch), 50)
    for (let i = 0; i < 1000; i++) buffer.put(i % 2 ? 'a' : 'b', i)
    vi.advanceTimersByTime(50)
    expect(batches).toEqual([
      new Map([
        ['b', 998],
        ['a', 999],
      ]),
    ])
    buffer.put('a', 1)
    buffer.dispose()
    vi.advanceTimersByTime(100)
    expect(batches).toHaveLength(1)
    vi.useRealTimers()
  })
  it('renders the rows in view plus the overscan', () => {
    expect(visibleWindow(18 * 1000, 180, 18, 100_000)).toEqual({ first: 980, end: 1030 })
  })
})
