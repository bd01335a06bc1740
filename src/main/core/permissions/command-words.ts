/**
 * Words as rules spell them. A rule is text the user typed or saved from a suggestion; these two
 * functions turn it into the argv words it means and back, so `git commit -m 'a b'` as a rule equals
 * the argv `['git', 'commit', '-m', 'a b']` that bash would run.
 */

const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./^-]+$/

/** Quotes a word only when bash would otherwise split or expand it. */
export function quoteWord(word: string): string {
  if (word !== '' && PLAIN_WORD.test(word)) return word
  return `'${word.replaceAll("'", `'\\''`)}'`
}

export function joinWords(words: readonly string[]): string {
  return words.map(quoteWord).join(' ')
}

/**
 * Splits rule text into words with bash's quoting (single quotes, double quotes with `\` escapes,
 * backslash outside quotes). Returns null for an unterminated quote: such a rule can match nothing.
 */
export function splitRuleWords(text: string): string[] | null {
  const words: string[] = []
  let current = ''
  let inWord = false
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] as string
    if (char === ' ' || char === '\t' || char === '\n') {
      if (inWord) words.push(current)
      current = ''
      inWord = false
      continue
    }
    inWord = true
    if (char === '\\') {
      i += 1
      if (i < text.length) current += text[i]
      continue
    }
    if (char === "'") {
      const end = text.indexOf("'", i + 1)
      if (end === -1) return null
      current += text.slice(i + 1, end)
      i = end
      continue
    }
    if (char === '"') {
      let j = i + 1
      for (; j < text.length && text[j] !== '"'; j += 1) {
        if (text[j] === '\\' && j + 1 < text.length && '"\\$`'.includes(text[j + 1] as string)) j += 1
        current += text[j]
      }
      if (j >= text.length) return null
      i = j
      continue
    }
    current += char
  }
  if (inWord) words.push(current)
  return words
}
