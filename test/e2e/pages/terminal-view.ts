import { expect, type Locator } from '@playwright/test'
import type { TaskRow } from './tasks-page'

/** A terminal task's view on the Tasks screen: xterm.js's screen, and the log of who typed what. */
export class TerminalView {
  constructor(readonly row: TaskRow) {}

  static async open(row: TaskRow): Promise<TerminalView> {
    const toggle = row.root.getByRole('button', { name: /^(Show|Hide) terminal of / })
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click()
    const view = new TerminalView(row)
    await expect(view.screen()).toBeVisible()
    return view
  }

  screen(): Locator {
    return this.row.root.getByRole('region', { name: /^Task terminal/ })
  }

  /** The rows xterm.js draws, as text (one row per line). */
  async text(): Promise<string> {
    return this.screen()
      .locator('.xterm-rows > div')
      .evaluateAll((rows) =>
        rows.map((row) => (row.textContent ?? '').replace(/\u00a0/g, ' ').trimEnd()).join('\n'),
      )
  }

  async waitForText(pattern: RegExp, timeoutMs = 20_000): Promise<void> {
    await expect.poll(() => this.text(), { timeout: timeoutMs }).toMatch(pattern)
  }

  /** Clicks into the terminal and types, as a person does; `\n` is the Enter key. */
  async type(text: string): Promise<void> {
    await this.screen().click()
    const page = this.row.root.page()
    for (const part of text.split(/(\n)/)) {
      if (part === '\n') await page.keyboard.press('Enter')
      else if (part !== '') await page.keyboard.type(part)
    }
  }

  inputs(): Locator {
    return this.row.root.getByRole('list', { name: 'Input typed into this task' }).getByRole('listitem')
  }
}
