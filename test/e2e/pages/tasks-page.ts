import { expect, type Locator, type Page } from '@playwright/test'
import { openScreen } from './open-screen'
import { textOf } from './text-of'

/** One background task on the Tasks screen. */
export class TaskRow {
  constructor(readonly root: Locator) {}

  /** Raw status: running, completed, failed, killed, stopped. */
  async status(): Promise<string> {
    return (await this.root.getAttribute('data-status')) ?? ''
  }

  async waitForStatus(status: string, timeoutMs = 30_000): Promise<void> {
    await expect(this.root).toHaveAttribute('data-status', status, { timeout: timeoutMs })
  }

  async stop(): Promise<void> {
    // Named after the command ("Stop sleep 100"), so Stop on one card is not Stop on the next.
    await this.root.getByRole('button', { name: /^Stop / }).click()
    await expect(this.root).not.toHaveAttribute('data-status', 'running', { timeout: 15_000 })
  }

  field(name: 'elapsed' | 'lastOutput' | 'bytes' | 'exit' | 'stoppedBy' | 'outputPath'): Promise<string> {
    return textOf(this.root.locator(`[data-field="${name}"]`))
  }

  /** The full log's path, shown once the task has finished. */
  logPath(): Promise<string> {
    return this.field('outputPath')
  }

  /** Opens the live tail and returns its scroller; the text is the rows in view, newest at the bottom. */
  async output(): Promise<Locator> {
    const toggle = this.root.getByRole('button', { name: /^(Show|Hide) output of / })
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click()
    const region = this.root.getByRole('region', { name: 'Task output' })
    return region
  }
}

/** The Tasks screen: every background task, Stop per task and Stop all. */
export class TasksPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await openScreen(this.page, 'Tasks')
  }

  screen(): Locator {
    return this.page.getByRole('region', { name: 'Tasks', exact: true })
  }

  rows(): Locator {
    return this.screen().getByRole('article')
  }

  /** Opens the screen and waits for the newest task whose command is exactly `command`. */
  async row(command: string, timeoutMs = 30_000): Promise<TaskRow> {
    await this.open()
    const row = this.screen().getByRole('article', { name: command, exact: true }).first()
    await expect(row).toBeVisible({ timeout: timeoutMs })
    return new TaskRow(row)
  }

  /** Presses Stop all, confirms the question that names how many, and returns the result ("Stopped 2 tasks."). */
  async stopAll(): Promise<string> {
    await this.open()
    await this.stopAllQuestion()
    await this.screen()
      .getByRole('group', { name: 'Stop all tasks?' })
      .getByRole('button', { name: /^Stop \d+ tasks?$/ })
      .click()
    const status = this.screen().getByRole('status')
    await expect(status).toBeVisible()
    return textOf(status)
  }

  /** Presses Stop all and returns the question it asks (naming how many tasks), stopping nothing yet. */
  async stopAllQuestion(): Promise<string> {
    await this.open()
    await this.screen().getByRole('button', { name: 'Stop all' }).click()
    const question = this.screen().getByRole('group', { name: 'Stop all tasks?' })
    await expect(question).toBeVisible()
    return textOf(question.locator('p'))
  }
}
