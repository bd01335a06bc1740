import { describe, expect, it } from 'vitest'
import { joinWords, quoteWord, splitRuleWords } from '../../../../src/main/core/permissions/command-words'
import {
  parseBashRule,
  validateBashRule,
  wildcardMatches,
} from '../../../../src/main/core/permissions/rule-syntax'

describe('rule syntax', () => {
  it.each([
    ['npm test', 'exact'],
    ['npm test:*', 'prefix'],
    ['git commit -m "a b":*', 'prefix'],
    ['git * --force', 'wildcard'],
    ['*', 'wildcard'],
    ['npm run *:*', 'wildcard'],
    ['ls *.txt', 'wildcard'],
  ])('%s is a %s rule', (text, kind) => {
    expect(parseBashRule(text).kind).toBe(kind)
  })

  it.each([
    ['', 'a rule cannot be empty'],
    ['   ', 'a rule cannot be empty'],
    [':*', 'has no command before ":*"'],
    ['git commit -m "x:*', 'unterminated quote'],
    ['a\0b', 'NUL'],
    ['x'.repeat(2_001), 'at most 2000'],
  ])('%j is refused: %s', (text, message) => {
    expect(() => parseBashRule(text)).toThrow(message)
    expect(validateBashRule(text)).toContain(message)
  })

  it('an exact rule that does not split into words still matches its whole line', () => {
    expect(parseBashRule("cat <<EOF\nit's\nEOF")).toEqual({
      kind: 'exact',
      text: "cat <<EOF\nit's\nEOF",
      words: null,
    })
  })

  it('keeps quoted words whole and unquotes them like bash', () => {
    expect(parseBashRule(`git commit -m "a b" 'c d' e\\ f:*`)).toMatchObject({
      words: ['git', 'commit', '-m', 'a b', 'c d', 'e f'],
    })
    expect(splitRuleWords(`echo "a \\"q\\" \\$x"`)).toEqual(['echo', 'a "q" $x'])
  })

  it('wildcards match any run of characters and escape everything else', () => {
    const rule = parseBashRule('git log --format=(%h) *')
    if (rule.kind !== 'wildcard') throw new Error('expected a wildcard')
    expect(wildcardMatches(rule.segments, 'git log --format=(%h) -n 5')).toBe(true)
    expect(wildcardMatches(rule.segments, 'git log --format=Xh) -n 5')).toBe(false)
  })

  it('quotes a word only when bash would split or expand it, and round-trips', () => {
    expect(quoteWord('lint:fix')).toBe('lint:fix')
    expect(quoteWord('a b')).toBe("'a b'")
    expect(quoteWord("it's")).toBe(`'it'\\''s'`)
    expect(quoteWord('')).toBe("''")
    const words = ['git', 'commit', '-m', "it's a $test"]
    expect(splitRuleWords(joinWords(words))).toEqual(words)
  })

  it.each([
    ['*', '', true],
    ['*', 'anything at all', true],
    ['git *', 'git push', true],
    ['git *', 'git', false],
    ['git *', 'gitx push', false],
    ['* --force', 'git push --force', true],
    ['* --force', 'git push --force-with-lease', false],
    ['npm run *:*', 'npm run build:prod:x', true],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'acb', false],
    ['a*a', 'a', false],
    ['ab*ba', 'aba', false],
    ['x*y*y', 'xyyy', true],
  ])('wildcard %j against %j → %s', (rule, text, expected) => {
    expect(wildcardMatches(rule.split('*'), text)).toBe(expected)
  })

  it('a pathological wildcard on a 10 MB command is answered, not backtracked', () => {
    const text = 'a'.repeat(10 * 1024 * 1024)
    expect(wildcardMatches('*a*a*a*a*a*a*a*a*a*a*a*b'.split('*'), text)).toBe(false)
  })
})
