import { expect, type Locator, type Page } from '@playwright/test'
import { openScreen } from './open-screen'
import { renderedText, textOf } from './text-of'

/** local: this workspace, kept on this machine (the default); workspace: shared with the repository. */
export type RuleScope = 'session' | 'local' | 'workspace' | 'user'

const SCOPE_LABEL: Record<RuleScope, string> = {
  session: 'This session',
  local: 'This workspace',
  workspace: 'Share with the repository',
  user: 'All workspaces (user)',
}

/** One pending approval card, on the Approvals screen or inline in its call's place in the history. */
export class ApprovalCardView {
  constructor(readonly root: Locator) {}

  command(): Promise<string> {
    return textOf(this.root.locator('[data-field="command"]'))
  }

  why(): Promise<string> {
    return renderedText(this.root.getByRole('region', { name: 'Why approval is needed' }))
  }

  /** The four answer buttons in screen order: accessible name and keyboard shortcut. */
  async actions(): Promise<Array<{ name: string; key: string }>> {
    return this.root
      .getByRole('button', { name: /^(Allow once|Always allow|Deny|Deny with a message)$/ })
      .evaluateAll((buttons) =>
        buttons.map((button) => ({
          name: button.getAttribute('aria-label') ?? '',
          key: button.getAttribute('aria-keyshortcuts') ?? '',
        })),
      )
  }

  async allowOnce(): Promise<void> {
    await this.root.getByRole('button', { name: 'Allow once', exact: true }).click()
    await expect(this.root).toBeHidden()
  }

  /** Opens "Always allow", optionally edits the rule and scope, confirms; waits for the card to go. */
  async alwaysAllow(rule?: string, scope?: RuleScope): Promise<void> {
    await this.openAlwaysAllow(rule, scope)
    await this.root.getByRole('button', { name: 'Save rule and allow' }).click()
    await expect(this.root).toBeHidden()
  }

  /** Like alwaysAllow, but for a rule the server refuses: returns the error shown next to the rule. */
  async alwaysAllowExpectingError(rule: string, scope?: RuleScope): Promise<string> {
    await this.openAlwaysAllow(rule, scope)
    await this.root.getByRole('button', { name: 'Save rule and allow' }).click()
    const error = this.root.getByRole('form', { name: 'Always allow' }).getByRole('alert')
    await expect(error).toBeVisible()
    return textOf(error)
  }

  /** The rule field as pre-filled (the first suggested rule). */
  async suggestedRule(): Promise<string> {
    await this.openAlwaysAllow()
    return this.root.getByLabel('Rule', { exact: true }).inputValue()
  }

  /** Deny at once; with a message, through "Deny with a message" and its Deny command button. */
  async deny(message?: string): Promise<void> {
    if (message === undefined) {
      await this.root.getByRole('button', { name: 'Deny', exact: true }).click()
    } else {
      await this.root.getByRole('button', { name: 'Deny with a message', exact: true }).click()
      await this.messageField().fill(message)
      await this.root.getByRole('button', { name: 'Deny command' }).click()
    }
    await expect(this.root).toBeHidden()
  }

  messageField(): Locator {
    return this.root.getByLabel('Message to the agent (optional)')
  }

  /** What the card says about its keys: armed, arming, typing (or null when the keys answer another card). */
  async keysState(): Promise<string | null> {
    return this.root
      .locator('[data-keys-state]')
      .getAttribute('data-keys-state', { timeout: 1_000 })
      .catch(() => null)
  }

  private async openAlwaysAllow(rule?: string, scope?: RuleScope): Promise<void> {
    const form = this.root.getByRole('form', { name: 'Always allow' })
    if (!(await form.isVisible()))
      await this.root.getByRole('button', { name: 'Always allow', exact: true }).click()
    if (rule !== undefined) await form.getByLabel('Rule', { exact: true }).fill(rule)
    if (scope !== undefined) await form.getByLabel(SCOPE_LABEL[scope]).check()
  }
}

/** The Approvals screen and the pending count on its nav link. */
export class ApprovalsPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await openScreen(this.page, 'Approvals')
  }

  screen(): Locator {
    return this.page.getByRole('region', { name: 'Approvals', exact: true })
  }

  cards(): Locator {
    return this.screen().getByRole('article')
  }

  /** Opens the screen and waits for the card for `command` (exact text). */
  async card(command: string, timeoutMs = 30_000): Promise<ApprovalCardView> {
    await this.open()
    const card = this.screen().getByRole('article', { name: command, exact: true }).first()
    await expect(card).toBeVisible({ timeout: timeoutMs })
    return new ApprovalCardView(card)
  }

  /** The card 1–4 answer: the one the person picked, else the oldest. */
  keyTarget(): Locator {
    return this.screen().locator('[data-key-target]')
  }

  /**
   * Without moving the focus, waits until the keys are armed on the card they answer (they ignore
   * presses for a moment after a card appears or becomes the target), then presses 1–4 on it.
   */
  async pressShortcut(key: '1' | '2' | '3' | '4'): Promise<void> {
    await this.open()
    await expect(this.keyTarget()).toHaveAttribute('data-keys-armed', '')
    await this.page.keyboard.press(key)
  }

  /** The badge count on the Approvals link (0 when no badge is shown). */
  async badgeCount(): Promise<number> {
    const badge = this.page.getByRole('navigation', { name: 'Main' }).getByTestId('approvals-badge')
    if ((await badge.count()) === 0) return 0
    return Number.parseInt(await textOf(badge), 10)
  }
}
