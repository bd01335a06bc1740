/**
 * xterm.js writes its measured row sizes and theme colours into <style> elements it creates, and the
 * page's CSP (`style-src 'self'`) blocks inline style elements. Rather than loosen the policy for
 * every screen, the text of those elements is copied into constructed style sheets, which the CSP
 * does not govern (they are CSSOM, not markup), while the terminal lives.
 */
export function adoptTerminalStyles(root: HTMLElement): () => void {
  const sheets = new Map<HTMLStyleElement, CSSStyleSheet>()
  const sync = () => {
    const present = new Set(root.querySelectorAll('style'))
    for (const [element, sheet] of sheets) {
      if (!present.has(element)) {
        sheets.delete(element)
        document.adoptedStyleSheets = document.adoptedStyleSheets.filter((each) => each !== sheet)
      }
    }
    for (const element of present) {
      let sheet = sheets.get(element)
      if (!sheet) {
        sheet = new CSSStyleSheet()
        sheets.set(element, sheet)
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
      }
      sheet.replaceSync(element.textContent ?? '')
    }
  }
  const observer = new MutationObserver(sync)
  observer.observe(root, { subtree: true, childList: true, characterData: true })
  sync()
  return () => {
    observer.disconnect()
    const ours = new Set(sheets.values())
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((sheet) => !ours.has(sheet))
  }
}
