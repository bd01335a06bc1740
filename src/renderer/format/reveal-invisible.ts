/**
 * Characters that make a command read differently from what runs: bidi overrides and isolates
 * (Trojan Source, CVE-2021-42574), zero-width characters, and control characters other than tab
 * and newline. An approval card shows each as a visible ⟨U+XXXX⟩ so a person approves what runs.
 */
const INVISIBLE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g

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
