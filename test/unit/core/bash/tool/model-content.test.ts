import { describe, expect, it } from 'vitest'
import { interpretExitCode } from '../../../../../src/main/core/bash/tool/exit-code-semantics'
import {
  createGhRateLimitNotifier,
  GH_RATE_LIMIT_HINT,
} from '../../../../../src/main/core/bash/tool/gh-rate-limit'
import { parseImageOutput } from '../../../../../src/main/core/bash/tool/image-output'
import {
  ABORT_NOTE,
  type BashOutcome,
  formatBashModelContent,
  isEmptyBashCommand,
} from '../../../../../src/main/core/bash/tool/model-content'
import { stripAnsi } from '../../../../../src/main/core/bash/tool/strip-ansi'

const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

function outcome(overrides: Partial<BashOutcome>): BashOutcome {
  return {
    status: 'completed',
    exitCode: 0,
    head: '',
    totalBytes: 0,
    persistedPath: null,
    binary: false,
    errorMessage: null,
    ...overrides,
  }
}
const words = (text: string) => text.split(' ')

describe('exit-code semantics by the last command (seed 003)', () => {
  it.each([
    ['grep x f', 1, false, 'No matches found'],
    ['rg x', 1, false, 'No matches found'],
    ['/usr/bin/grep x f', 1, false, 'No matches found'],
    ['diff a b', 1, false, 'Files differ'],
    ['find . -name x', 1, false, 'Some directories were inaccessible'],
    ['test -f x', 1, false, 'Condition is false'],
    ['[ -f x ]', 1, false, 'Condition is false'],
    ['git grep x', 1, false, 'No matches found'],
    ['git --no-pager diff --exit-code', 1, false, 'Files differ'],
    ['git -C sub diff --quiet', 1, false, 'Files differ'],
    ['grep x f', 2, true, null],
    ['git status', 1, true, null],
    ['npm test', 1, true, null],
    ['ls', 0, false, null],
  ])('%s exiting %i → error %s, %s', (command, code, isError, message) => {
    expect(interpretExitCode(words(command), code)).toEqual({ isError, message })
  })

  it('a dynamic last command or a killed process gets no special meaning', () => {
    expect(interpretExitCode(null, 1)).toEqual({ isError: true, message: null })
    expect(interpretExitCode(words('grep x'), null)).toEqual({ isError: true, message: null })
  })
})

describe('model-facing content (seed 003 + seed 000 输出)', () => {
  it('an empty command is an empty result', () => {
    expect(isEmptyBashCommand('  \n\t')).toBe(true)
    expect(isEmptyBashCommand(' ls ')).toBe(false)
  })

  it('success shows the output, ANSI stripped, trailing newlines trimmed', () => {
    const content = formatBashModelContent({
      outcome: outcome({ head: '\u001b[32mok\u001b[0m\n\n', totalBytes: 12 }),
      semantics: { isError: false, message: null },
    })
    expect(content).toEqual({ blocks: [{ type: 'text', text: 'ok' }], isError: false })
  })

  it('an error exit puts "Exit code N" first and flags the result', () => {
    const content = formatBashModelContent({
      outcome: outcome({ status: 'failed', exitCode: 3, head: 'boom\n' }),
      semantics: interpretExitCode(words('npm test'), 3),
    })
    expect(content).toEqual({ blocks: [{ type: 'text', text: 'Exit code 3\nboom' }], isError: true })
  })

  it('an answer-not-error exit is not flagged and says what it means', () => {
    const content = formatBashModelContent({
      outcome: outcome({ status: 'failed', exitCode: 1 }),
      semantics: interpretExitCode(words('grep needle file'), 1),
    })
    expect(content).toEqual({ blocks: [{ type: 'text', text: 'No matches found' }], isError: false })
  })

  it('an aborted command gets the abort note; a timeout gets the executor words', () => {
    const aborted = formatBashModelContent({
      outcome: outcome({
        status: 'cancelled',
        exitCode: null,
        head: 'partial\n',
        errorMessage: 'Command was cancelled',
      }),
      semantics: { isError: true, message: null },
    })
    expect(aborted).toEqual({ blocks: [{ type: 'text', text: `partial\n${ABORT_NOTE}` }], isError: true })
    const timedOut = formatBashModelContent({
      outcome: outcome({ status: 'timed_out', exitCode: null, errorMessage: 'Command timed out after 2m' }),
      semantics: { isError: true, message: null },
    })
    expect(timedOut).toEqual({
      blocks: [{ type: 'text', text: 'Command timed out after 2m' }],
      isError: true,
    })
  })

  it('a process killed by a signal or the output cap says so; a full disk is named', () => {
    const killed = formatBashModelContent({
      outcome: outcome({ status: 'failed', exitCode: null, errorMessage: 'Command was killed by SIGKILL' }),
      semantics: interpretExitCode(words('npm test'), null),
    })
    expect(killed).toEqual({
      blocks: [{ type: 'text', text: 'Command was killed by SIGKILL' }],
      isError: true,
    })
    const full = formatBashModelContent({
      outcome: outcome({
        status: 'failed',
        exitCode: 1,
        diskFull: 'The disk holding /x is full: output was lost',
      }),
      semantics: interpretExitCode(words('npm test'), 1),
    })
    expect(full.blocks).toEqual([
      { type: 'text', text: 'Exit code 1\nThe disk holding /x is full: output was lost' },
    ])
  })

  it('output over the inline limit becomes the persisted-output envelope with a 2000-character preview', () => {
    const head = 'a'.repeat(30_000)
    const content = formatBashModelContent({
      outcome: outcome({ head, totalBytes: 45_000, persistedPath: '/tmp/run-1-stdout.log' }),
      semantics: { isError: false, message: null },
    })
    const text = (content.blocks[0] as { text: string }).text
    expect(
      text.startsWith(
        '<persisted-output>\nOutput too large (43.9 KiB, 45000 bytes). Full output saved to: /tmp/run-1-stdout.log\n',
      ),
    ).toBe(true)
    expect(text).toContain(`Preview (first 2000 characters):\n${'a'.repeat(2_000)}\n…\n</persisted-output>`)
    expect(text).not.toContain('a'.repeat(2_001))
  })

  it('appends the cwd reset note and the gh hint; an empty success says so', () => {
    const content = formatBashModelContent({
      outcome: outcome({}),
      semantics: { isError: false, message: null },
      cwdNote: 'Shell cwd was reset to /ws',
      ghHint: GH_RATE_LIMIT_HINT,
    })
    expect(content.blocks).toEqual([
      { type: 'text', text: `Shell cwd was reset to /ws\n${GH_RATE_LIMIT_HINT}` },
    ])
    expect(
      formatBashModelContent({ outcome: outcome({}), semantics: { isError: false, message: null } }).blocks,
    ).toEqual([{ type: 'text', text: '(no output)' }])
  })

  it('binary output shows its size, not its bytes', () => {
    const content = formatBashModelContent({
      outcome: outcome({ head: 'a\0b', totalBytes: 3, binary: true }),
      semantics: { isError: false, message: null },
    })
    expect(content.blocks).toEqual([{ type: 'text', text: '[binary output: 3 bytes]' }])
  })

  it('a stdout that is exactly one image data URL becomes an image block', () => {
    const url = `data:image/png;base64,${PNG_1PX}`
    expect(
      formatBashModelContent({
        outcome: outcome({ head: `${url}\n` }),
        semantics: { isError: false, message: null },
      }),
    ).toEqual({
      blocks: [{ type: 'image', mediaType: 'image/png', data: PNG_1PX }],
      isError: false,
    })
  })

  it.each([
    ['text before', `see data:image/png;base64,${PNG_1PX}`],
    ['two URLs', `data:image/png;base64,${PNG_1PX}\ndata:image/png;base64,${PNG_1PX}`],
    ['a PNG claiming to be a JPEG', `data:image/jpeg;base64,${PNG_1PX}`],
    ['an SVG (script-capable)', 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4='],
    ['bad base64', 'data:image/png;base64,iVBOR$w0K'],
    ['over 20 MiB', `data:image/png;base64,${PNG_1PX}${'A'.repeat(20 * 1024 * 1024)}`],
  ])('stays text: %s', (_name, stdout) => {
    expect(parseImageOutput(stdout)).toBeNull()
  })
})

describe('gh rate-limit hint', () => {
  it('once per 60 s, only for gh API calls whose output shows the limit', () => {
    let now = 1_000_000
    const notifier = createGhRateLimitNotifier(() => now)
    const limited = 'HTTP 403: API rate limit exceeded for user'
    expect(notifier.hintFor([words('gh auth status')], limited)).toBeNull()
    expect(notifier.hintFor([words('curl x')], limited)).toBeNull()
    expect(notifier.hintFor([words('gh pr list')], 'no limit here')).toBeNull()
    expect(notifier.hintFor([words('echo'), words('gh pr list')], limited)).toBe(GH_RATE_LIMIT_HINT)
    now += 59_999
    expect(notifier.hintFor([words('gh pr list')], limited)).toBeNull()
    now += 1
    expect(notifier.hintFor([words('gh api /rate_limit')], limited)).toBe(GH_RATE_LIMIT_HINT)
  })
})

describe('ANSI stripping', () => {
  it.each([
    ['\u001b[1;31mred\u001b[0m', 'red'],
    ['\u001b]0;title\u0007text', 'text'],
    ['\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\', 'link'],
    ['a\u001b[2Kb\u001b[1Ac', 'abc'],
    ['plain', 'plain'],
  ])('%j → %j', (input, expected) => {
    expect(stripAnsi(input)).toBe(expected)
  })
})
