/**
 * Characters that make a command read differently from what runs: bidi overrides and isolates
 * (Trojan Source, CVE-2021-42574), zero-width and other invisible format characters (soft hyphen,
 * variation selectors, Unicode tags: "ASCII smuggling"), blanks that look like a space but that
 * bash keeps inside a word (no-break and typographic spaces, Hangul and braille fillers), and
 * control characters other than tab and newline. An approval card shows each as a visible
 * ⟨U+XXXX⟩ so a person approves what runs: `ls\u00a0-la` is one word, not `ls` and `-la`.
 */
const INVISIBLE = new RegExp(
  [
    '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u00a0\\u00ad\\u061c\\u115f\\u1160\\u1680\\u180e\\u180f\\u2000-\\u200f\\u2028-\\u202f\\u205f-\\u2064\\u2066-\\u206f\\u2800\\u3000\\u3164\\ufeff\\uffa0\\ufff9-\\ufffb\\u{1d173}-\\u{1d17a}\\u{e0000}-\\u{e007f}]',
    // Combining marks, apart: in one class with the rest they would read as joined to a neighbour.
    '\\u034f',
    '[\\u17b4\\u17b5]',
    '[\\u180b-\\u180d]',
    '[\\ufe00-\\ufe0f]',
    '[\\u{e0100}-\\u{e01ef}]',
  ].join('|'),
  'gu',
)

export interface RevealedText {
  text: string
  /** How many characters were replaced by a visible marker. */
  hidden: number
}

/** Said wherever a revealed command is shown, so the ⟨U+…⟩ markers are never taken for the command itself. */
export function hiddenCharactersNotice(hidden: number): string {
  return `This command contains ${hidden} invisible or direction-changing character${hidden === 1 ? '' : 's'}, shown as ⟨U+…⟩: what runs may differ from how it would otherwise read.`
}

export function revealInvisible(text: string): RevealedText {
  let hidden = 0
  const revealed = text.replace(INVISIBLE, (char) => {
    hidden += 1
    return `⟨U+${char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}⟩`
  })
  return { text: revealed, hidden }
}
