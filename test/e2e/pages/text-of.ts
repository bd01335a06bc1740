import type { Locator } from '@playwright/test'

/** The element's text ('' when it has none). */
export async function textOf(locator: Locator): Promise<string> {
  return (await locator.textContent()) ?? ''
}

/** Rendered text with one line per output row, as a user would copy it (textContent would run rows together). */
export function renderedText(locator: Locator): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: rows are block elements; only innerText puts newlines between them.
  return locator.evaluate((element) => (element as HTMLElement).innerText)
}
