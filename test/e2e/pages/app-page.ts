import { expect, type Locator, type Page } from '@playwright/test'
import { ApprovalsPage } from './approvals-page'
import { openScreen, SCREEN_LABEL, type ScreenName } from './open-screen'
import { SessionPage } from './session-page'
import { SettingsPage } from './settings-page'
import { TasksPage } from './tasks-page'

export type { ScreenName } from './open-screen'

/** The page-object layer: both launchers (browser mode and Electron) drive the app only through this. */
export class AppPage {
  readonly session: SessionPage
  readonly approvals: ApprovalsPage
  readonly tasks: TasksPage
  readonly settings: SettingsPage

  constructor(readonly page: Page) {
    this.session = new SessionPage(page)
    this.approvals = new ApprovalsPage(page)
    this.tasks = new TasksPage(page)
    this.settings = new SettingsPage(page)
  }

  nav(): Locator {
    return this.page.getByRole('navigation', { name: 'Main' })
  }

  navLink(screen: ScreenName): Locator {
    return this.nav().getByRole('link', { name: new RegExp(`^${SCREEN_LABEL[screen]}`) })
  }

  async open(screen: ScreenName): Promise<void> {
    await openScreen(this.page, screen)
  }

  /** A full-page screenshot under test-results/screens/ (not committed), for the per-screen record. */
  async screenshot(name: string): Promise<string> {
    const path = `test-results/screens/${name.replace(/[^\w.-]+/g, '-')}.png`
    await this.page.screenshot({ path, fullPage: true })
    return path
  }

  async aboutFacts(): Promise<Record<string, string>> {
    await this.settings.open('About')
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
