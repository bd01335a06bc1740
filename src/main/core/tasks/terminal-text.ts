/**
 * What a terminal's output reads as for a model (issue 23.1): the text a screen would show line by
 * line, without the control sequences that drew it. The desk keeps the raw bytes (xterm.js draws
 * them); the model gets this. Each line is replayed with a cursor, so a prompt redrawn with `\r`,
 * a backspace-and-erase (`\b\x1b[K`), a progress bar and readline's cursor moves leave the final
 * text, not every intermediate frame. Escape sequences that do not edit the line are dropped.
 */

// CSI with its parameters (or cut short), OSC/DCS/APC/PM strings to BEL or ST, and two-byte ESC sequences.
const ESCAPE =
  /\u001b\[([0-?]*)[ -/]*([@-~])|\u009b([0-?]*)[ -/]*([@-~])|\u001b\[[0-?]*[ -/]*|\u001b[\]P_^X][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[ -/]*[0-~]?/y

export function renderTerminalText(raw: string): string {
  const lines: string[] = []
  let line: string[] = []
  let cursor = 0
  const put = (char: string) => {
    while (line.length < cursor) line.push(' ')
    line[cursor] = char
    cursor += 1
  }
  const endLine = () => {
    lines.push(line.join('').trimEnd())
    line = []
    cursor = 0
  }
  let index = 0
  while (index < raw.length) {
    const char = raw[index]!
    if (char === '\u001b' || char === '\u009b') {
      ESCAPE.lastIndex = index
      const match = ESCAPE.exec(raw)
      if (!match) {
        index += 1
        continue
      }
      const params = match[1] ?? match[3]
      const final = match[2] ?? match[4]
      if (final) applyCsi(final, params ?? '')
      index = ESCAPE.lastIndex
      continue
    }
    index += 1
    if (char === '\n') endLine()
    else if (char === '\r') cursor = 0
    else if (char === '\b') cursor = Math.max(0, cursor - 1)
    else if (char === '\t') {
      const stop = (Math.floor(cursor / 8) + 1) * 8
      while (cursor < stop) put(line[cursor] ?? ' ')
    } else if (char >= ' ' || char > '\u009f') put(char)
    // Other C0/C1 controls (BEL, SO/SI, NUL) draw nothing.
  }
  // The last line may be a prompt waiting for input: its trailing space is part of it (`>>> `).
  if (line.length > 0) lines.push(line.join(''))
  return lines.join('\n')

  function applyCsi(final: string, params: string): void {
    const count = Math.max(1, Number.parseInt(params, 10) || 1)
    switch (final) {
      case 'K': // erase in line: 0 to the end, 1 to the start, 2 all
        if (params === '' || params === '0') line.length = Math.min(line.length, cursor)
        else if (params === '1') for (let i = 0; i <= cursor && i < line.length; i += 1) line[i] = ' '
        else line = []
        return
      case 'D':
        cursor = Math.max(0, cursor - count)
        return
      case 'C':
        cursor += count
        return
      case 'G':
        cursor = count - 1
        return
      case 'P': // delete characters at the cursor
        line.splice(cursor, count)
        return
      case 'J': // erase the screen from the cursor: what is written stays in the transcript
        if (params === '' || params === '0') line.length = Math.min(line.length, cursor)
        return
      default:
      // Colours, modes, scrolling and cursor moves across lines do not change the transcript.
    }
  }
}
