import { describe, expect, it } from 'vitest'
import { joinWords, quoteWord, splitRuleWords } from '../../../../src/main/core/permissions/command-words'
import { parseBashRule, validateBashRule } from '../../../../src/main/core/permissions/rule-syntax'

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
    ["echo 'x", 'unterminated quote'],
    ['a\0b', 'NUL'],
    ['x'.repeat(2_001), 'at most 2000'],
  ])('%j is refused: %s', (text, message) => {
    expect(() => parseBashRule(text)).toThrow(message)
    expect(validateBashRule(text)).toContain(message)
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
    expect(rule.pattern.test('git log --format=(%h) -n 5')).toBe(true)
    expect(rule.pattern.test('git log --format=Xh) -n 5')).toBe(false)
  })

  it('quotes a word only when bash would split or expand it, and round-trips', () => {
    expect(quoteWord('lint:fix')).toBe('lint:fix')
    expect(quoteWord('a b')).toBe("'a b'")
    expect(quoteWord("it's")).toBe(`'it'\\''s'`)
    expect(quoteWord('')).toBe("''")
    const words = ['git', 'commit', '-m', "it's a $test"]
    expect(splitRuleWords(joinWords(words))).toEqual(words)
  })
})
