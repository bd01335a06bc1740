import { expect, type Locator, type Page } from '@playwright/test'
import { ApprovalCardView } from './approvals-page'
import { openScreen } from './open-screen'
import { renderedText, textOf } from './text-of'

export interface RunOptions {
  description?: string
  /** A number, or any text to check how bad input is refused. */
  timeout?: number | string
  background?: boolean
}

/** One call in the history, reached by its accessible name (the command). */
export class CallView {
  constructor(readonly root: Locator) {}

  /** Raw status (completed, waiting_for_approval, backgrounded, …) from the card's data-status. */
  async status(): Promise<string> {
    return (await this.root.getAttribute('data-status')) ?? ''
  }

  /** Waits until the call reaches `status` (raw value). */
  async waitForStatus(status: string, timeoutMs = 30_000): Promise<void> {
    await expect(this.root).toHaveAttribute('data-status', status, { timeout: timeoutMs })
  }

  /** Waits until the call is neither waiting for approval nor running; returns its final status. */
  async waitForEnd(timeoutMs = 60_000): Promise<string> {
    await expect(this.root).not.toHaveAttribute('data-status', /^(waiting_for_approval|running)$/, {
      timeout: timeoutMs,
    })
    return this.status()
  }

  statusText(): Promise<string> {
    return textOf(this.field('status'))
  }

  /** Exactly what the model is shown. */
  content(): Promise<string> {
    return textOf(this.field('content'))
  }

  exitCode(): Promise<string> {
    return textOf(this.field('exit'))
  }

  decision(): Promise<string> {
    return textOf(this.field('decision'))
  }

  /** Present only while the call runs. */
  liveOutput(): Locator {
    return this.root.getByRole('region', { name: 'Live output' })
  }

  /** The approval card shown inline in this call's place while it waits. */
  inlineApproval(): ApprovalCardView {
    return new ApprovalCardView(this.root.getByRole('region', { name: 'Approval needed' }))
  }

  approvalsLink(): Locator {
    return this.root.getByRole('link', { name: 'Open Approvals' })
  }

  /** Opens the full output and returns the text of the rows in view (the view is virtualised). */
  async fullOutputText(): Promise<string> {
    const button = this.root.getByRole('button', { name: /^(Show|Hide) full output of / })
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click()
    const region = this.root.getByRole('region', { name: 'Full output' })
    await expect(region).toBeVisible()
    return renderedText(region)
  }

  private field(name: string): Locator {
    return this.root.locator(`[data-field="${name}"]`)
  }
}

/** The Conversations screen: the list, the person's command form (a Bash tool call) and the history. */
export class SessionPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await openScreen(this.page, 'Session')
  }

  screen(): Locator {
    return this.page.getByRole('region', { name: 'Conversations', exact: true })
  }

  /** The list of conversations (the person's own and every agent run). */
  tabs(): Locator {
    return this.page.getByRole('navigation', { name: 'Conversations' })
  }

  /** Every conversation's name (its unique title), in list order. */
  async sessionTitles(): Promise<string[]> {
    return this.tabs()
      .locator('.conversation-pick')
      .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label') ?? ''))
  }

  async newSession(): Promise<void> {
    await this.open()
    const before = await this.tabs()
      .getByRole('button', { name: /^Close conversation/ })
      .count()
    await this.tabs().getByRole('button', { name: 'New conversation of your own' }).click()
    await expect(this.tabs().getByRole('button', { name: /^Close conversation/ })).toHaveCount(before + 1)
  }

  /**
   * Makes sure a conversation of the person's own is selected, so a command can run: the open one,
   * else a new one.
   */
  async ensureSession(): Promise<void> {
    await this.open()
    const start = this.page.getByRole('button', { name: 'Start a session' })
    const form = this.commandField()
    const mine = this.tabs().locator('li[data-origin="person"] .conversation-pick').first()
    await expect(start.or(form).or(mine).first()).toBeVisible()
    if (await form.isVisible()) return
    if (await start.isVisible()) await start.click()
    else await mine.click()
    await expect(form).toBeVisible()
  }

  async selectSession(title: string): Promise<void> {
    await this.open()
    await this.tabs().getByRole('button', { name: title, exact: true }).click()
  }

  /** Closes the session; when it still has approvals or running tasks, confirms the inline question. */
  async closeSession(title: string): Promise<void> {
    await this.open()
    await this.tabs()
      .getByRole('button', { name: `Close conversation ${title}`, exact: true })
      .click()
    const confirm = this.tabs().getByRole('group', { name: `Close conversation ${title}?`, exact: true })
    if (await confirm.isVisible()) await confirm.getByRole('button', { name: 'Close anyway' }).click()
  }

  workspace(): Promise<string> {
    return textOf(this.page.locator('dd[data-field="workspace"]'))
  }

  commandField(): Locator {
    return this.page.getByLabel('Command', { exact: true })
  }

  /** Fills the form exactly as an agent's Bash tool call and presses Run; does not wait for the call to end. */
  async runCommand(command: string, options: RunOptions = {}): Promise<void> {
    await this.ensureSession()
    const form = this.page.getByRole('form', { name: 'Run a command' })
    await this.commandField().fill(command)
    await form.getByLabel('Description').fill(options.description ?? '')
    await form.getByLabel('Timeout (ms)').fill(options.timeout === undefined ? '' : String(options.timeout))
    await form.getByLabel('Run in background').setChecked(options.background ?? false)
    await form.getByRole('button', { name: 'Run' }).click()
  }

  /** Types a command into the box as a person does and presses Enter (Shift+Enter between lines). */
  async typeAndEnter(command: string): Promise<void> {
    await this.ensureSession()
    const box = this.commandField()
    await box.click()
    const lines = command.split('\n')
    for (const [index, line] of lines.entries()) {
      if (index > 0) await box.press('Shift+Enter')
      await box.pressSequentially(line)
    }
    await box.press('Enter')
  }

  /** Runs a command and returns a view of exactly that call once it is in the history. */
  async runCall(command: string, options: RunOptions = {}): Promise<CallView> {
    await this.ensureSession()
    const calls = this.history().getByRole('article')
    const before = await calls.count()
    await this.runCommand(command, options)
    await expect(calls).toHaveCount(before + 1)
    const newest = this.lastCall().root
    await expect(newest).toHaveAccessibleName(command)
    // Pinned by id, so the view keeps pointing at this call as newer ones arrive above it.
    const id = await newest.getAttribute('data-call-id')
    return new CallView(this.history().locator(`article[data-call-id="${id}"]`))
  }

  /** The error shown next to a form field ("Command", "Timeout (ms)", …), or null when there is none. */
  async fieldError(label: 'Command' | 'Description' | 'Timeout (ms)'): Promise<string | null> {
    const field = this.page.getByLabel(label, { exact: true })
    const described = await field.getAttribute('aria-describedby')
    const errorId = described?.split(' ').find((id) => id.endsWith('-error'))
    if (!errorId) return null
    return textOf(this.page.locator(`[id="${errorId}"]`))
  }

  history(): Locator {
    return this.page.getByRole('region', { name: 'History' })
  }

  /** The newest call of the selected session. */
  lastCall(): CallView {
    return new CallView(this.history().getByRole('article').first())
  }

  /** The newest call whose command is exactly `command`. */
  call(command: string): CallView {
    return new CallView(this.history().getByRole('article', { name: command, exact: true }).first())
  }
}
