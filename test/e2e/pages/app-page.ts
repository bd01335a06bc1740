import { expect, type Locator, type Page } from '@playwright/test'

export type ScreenName = 'Session' | 'Tasks' | 'Approvals' | 'Settings'

/** The page-object layer: both launchers (browser mode and Electron) drive the app only through this. */
export class AppPage {
  constructor(readonly page: Page) {}

  nav(): Locator {
    return this.page.getByRole('navigation', { name: 'Main' })
  }

  navLink(screen: ScreenName): Locator {
    return this.nav().getByRole('link', { name: new RegExp(`^${screen}`) })
  }

  async open(screen: ScreenName): Promise<void> {
    await this.navLink(screen).click()
    await expect(this.navLink(screen)).toHaveAttribute('aria-current', 'page')
  }

  async aboutFacts(): Promise<Record<string, string>> {
    await this.open('Settings')
    const facts = this.page.getByTestId('about-facts')
    await expect(facts).toBeVisible()
    const fields = await facts
      .locator('dd[data-field]')
      .evaluateAll((nodes) =>
        nodes.map((node) => [node.getAttribute('data-field') ?? '', node.textContent ?? ''] as const),
      )
    return Object.fromEntries(fields)
  }
}
