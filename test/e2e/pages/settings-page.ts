import { expect, type Locator, type Page } from '@playwright/test'
import { openScreen } from './open-screen'
import { textOf } from './text-of'

export type SettingsSection =
  | 'Shell'
  | 'Permissions'
  | 'Network'
  | 'Environment'
  | 'Sandbox'
  | 'Agents'
  | 'Notifications'
  | 'Audit'
  | 'About'
export type PermissionMode = 'build' | 'plan' | 'yolo'
export type ShellKind = 'auto' | 'bash' | 'zsh' | 'git-bash' | 'cmd'
export type RuleList = 'allow' | 'ask' | 'deny'
export type RuleScope = 'session' | 'workspace' | 'user'

export interface RuleRow {
  list: string
  rule: string
  scope: string
  source: string
}

const SHELL_LABEL: Record<ShellKind, string> = {
  auto: 'Auto',
  bash: 'bash',
  zsh: 'zsh',
  'git-bash': 'Git Bash',
  cmd: 'CMD',
}

/** Settings: its section tabs and each section's controls. */
export class SettingsPage {
  constructor(readonly page: Page) {}

  panel(): Locator {
    return this.page.getByRole('tabpanel')
  }

  async open(section: SettingsSection): Promise<void> {
    await openScreen(this.page, 'Settings')
    const tab = this.page
      .getByRole('tablist', { name: 'Settings sections' })
      .getByRole('tab', { name: section })
    await tab.click()
    await expect(tab).toHaveAttribute('aria-selected', 'true')
  }

  /** The app-wide warning banner (a corrupt settings file was kept as .bak, defaults in use). */
  warningBanner(): Locator {
    return this.page.getByRole('alert', { name: 'Warnings' })
  }

  /** The error shown next to a field of the open section, or null. */
  async fieldError(label: string): Promise<string | null> {
    const field = this.panel().getByLabel(label, { exact: true }).first()
    const errorId = (await field.getAttribute('aria-describedby'))
      ?.split(' ')
      .find((id) => id.endsWith('-error'))
    return errorId ? textOf(this.page.locator(`[id="${errorId}"]`)) : null
  }

  // Permissions

  /** The saved mode (not an unsaved choice in the select). */
  async mode(): Promise<string> {
    await this.open('Permissions')
    const saved = this.panel().locator('[data-saved-mode]')
    await expect(saved).toBeVisible()
    return (await saved.getAttribute('data-saved-mode')) ?? ''
  }

  /** Chooses a mode and presses "Save mode"; waits until it is the saved mode. */
  async setMode(mode: PermissionMode): Promise<void> {
    await this.open('Permissions')
    const select = this.panel().getByLabel('Permission mode')
    await select.selectOption(mode)
    const save = this.panel().getByRole('button', { name: 'Save mode' })
    if (await save.isEnabled()) await save.click()
    await expect(this.panel().locator('[data-saved-mode]')).toHaveAttribute('data-saved-mode', mode)
    await expect(select).toBeEnabled()
  }

  /** Settings → Sandbox: sets the mode and saves (auto, strict or off). */
  async setSandboxMode(mode: 'auto' | 'strict' | 'off'): Promise<void> {
    await this.open('Sandbox')
    await this.panel().getByLabel('Mode', { exact: true }).selectOption(mode)
    await this.panel().getByRole('button', { name: 'Save sandbox settings' }).click()
    await expect(this.panel().getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible()
  }

  /** The app-wide banner shown while yolo is on (hidden otherwise). */
  yoloBanner(): Locator {
    return this.page.getByTestId('yolo-banner')
  }

  /** Every rule in effect, as the table lists it. */
  async rules(): Promise<RuleRow[]> {
    await this.open('Permissions')
    await expect(this.panel().getByRole('heading', { name: 'Rules' })).toBeVisible()
    const table = this.panel().getByRole('table', { name: 'Rules' })
    if ((await table.count()) === 0) return []
    return table.locator('tbody tr').evaluateAll((rows) =>
      rows.map((row) => {
        const cell = (name: string) => row.querySelector(`[data-field="${name}"]`)?.textContent ?? ''
        return { list: cell('list'), rule: cell('rule'), scope: cell('scope'), source: cell('source') }
      }),
    )
  }

  /** Adds a rule; returns the error shown next to a field when the server refuses it, else null. */
  async addRule(
    rule: string,
    list: RuleList = 'allow',
    scope: RuleScope = 'workspace',
  ): Promise<string | null> {
    await this.open('Permissions')
    const form = this.panel().getByRole('form', { name: 'Add a rule' })
    await form.getByLabel('List').selectOption(list)
    await form.getByLabel('Rule', { exact: true }).fill(rule)
    await form.getByLabel('Scope').selectOption(scope)
    await form.getByRole('button', { name: 'Add rule' }).click()
    const saved = this.panel().getByRole('table', { name: 'Rules' }).getByText(rule, { exact: true })
    const error = form.getByRole('alert')
    await expect(saved.or(error).first()).toBeVisible()
    return (await error.count()) > 0 ? textOf(error.first()) : null
  }

  async deleteRule(rule: string): Promise<void> {
    await this.open('Permissions')
    await this.panel()
      .getByRole('button', { name: `Delete rule ${rule}`, exact: true })
      .click()
    await expect(this.panel().getByRole('button', { name: `Delete rule ${rule}`, exact: true })).toHaveCount(
      0,
    )
  }

  async editRule(rule: string, next: string): Promise<void> {
    await this.open('Permissions')
    await this.panel()
      .getByRole('button', { name: `Edit rule ${rule}`, exact: true })
      .click()
    const form = this.panel().getByRole('form', { name: `Edit rule ${rule}` })
    await form.getByLabel('Rule', { exact: true }).fill(next)
    await form.getByRole('button', { name: 'Save rule' }).click()
    await expect(form).toBeHidden()
  }

  // Shell

  async setShell(kind: ShellKind, path?: string): Promise<void> {
    await this.open('Shell')
    const form = this.panel().getByRole('form', { name: 'Shell choice' })
    await form.getByLabel(SHELL_LABEL[kind], { exact: true }).check()
    await form.getByLabel('Executable path (optional)').fill(path ?? '')
    await form.getByRole('button', { name: 'Save shell' }).click()
    await expect(form.getByRole('status')).toBeVisible()
  }

  /** The shell choice saved for new sessions, as its radio shows it. */
  async shellChoice(): Promise<ShellKind | null> {
    await this.open('Shell')
    const checked = this.panel()
      .getByRole('form', { name: 'Shell choice' })
      .getByRole('radio', { checked: true })
    await expect(checked).toHaveCount(1)
    return (await checked.getAttribute('value')) as ShellKind | null
  }

  selectedShell(): Promise<string> {
    return textOf(this.panel().locator('[data-field="selectedShell"]'))
  }

  // Network

  async setNetwork(values: {
    proxy?: string
    noProxy?: string
    caFile?: string
    timeoutMs?: string
  }): Promise<void> {
    await this.open('Network')
    const form = this.panel().getByRole('form', { name: 'Network settings' })
    if (values.proxy !== undefined) await form.getByLabel('Proxy', { exact: true }).fill(values.proxy)
    if (values.noProxy !== undefined) await form.getByLabel('No proxy').fill(values.noProxy)
    if (values.caFile !== undefined) await form.getByLabel('CA certificate file').fill(values.caFile)
    if (values.timeoutMs !== undefined) await form.getByLabel('Timeout (ms)').fill(values.timeoutMs)
    await form.getByRole('button', { name: 'Save network settings' }).click()
  }

  /** "Where will this URL go?": route, proxy, rule and reason. */
  async routeOf(url: string): Promise<Record<string, string>> {
    await this.open('Network')
    await this.panel().getByLabel('URL', { exact: true }).fill(url)
    await this.panel().getByRole('button', { name: 'Check route' }).click()
    return this.facts(this.panel().getByTestId('url-route'))
  }

  async testConnection(url: string): Promise<Record<string, string>> {
    await this.open('Network')
    await this.panel().getByLabel('URL', { exact: true }).fill(url)
    await this.panel().getByRole('button', { name: 'Test connection' }).click()
    return this.facts(this.panel().getByTestId('connection-report'), 30_000)
  }

  // Environment and audit

  async environment(): Promise<{ facts: Record<string, string>; keys: string[]; sealedKeys: string[] }> {
    await this.open('Environment')
    const facts = await this.facts(this.panel().getByTestId('environment-facts'))
    const list = async (name: string) => {
      const items = this.panel().getByRole('list', { name })
      return (await items.count()) === 0 ? [] : items.getByRole('listitem').allTextContents()
    }
    return {
      facts,
      keys: await list('Captured keys'),
      sealedKeys: await list('Sealed from your login shell'),
    }
  }

  /** The name lists of Settings → Environment that `shellgate env` also prints. */
  async environmentNames(): Promise<Record<string, string[]>> {
    await this.open('Environment')
    await this.panel().getByTestId('environment-facts').waitFor()
    const lists: Record<string, string[]> = {}
    for (const name of [
      'Sealed at entry',
      'Dropped at entry',
      'Withheld from agent commands',
      'Passed through',
      'Also removed when a command runs without asking',
    ]) {
      const items = this.panel().getByRole('list', { name })
      lists[name] = (await items.count()) === 0 ? [] : await items.getByRole('listitem').allTextContents()
    }
    return lists
  }

  /** Saves the pass-through names in Settings → Environment. */
  async setPassThrough(names: string[]): Promise<void> {
    await this.open('Environment')
    const form = this.panel().getByRole('form', { name: 'Pass through' })
    await form.getByLabel(/Pass through to agent commands/).fill(names.join('\n'))
    await form.getByRole('button', { name: 'Save pass-through' }).click()
    await form.getByRole('status').waitFor()
  }

  /** Applies the audit filters and returns the table's rows as header → cell text. */
  async auditRows(
    filters: { text?: string; decidedBy?: string; status?: string; session?: string } = {},
  ): Promise<Array<Record<string, string>>> {
    await this.open('Audit')
    const form = this.panel().getByRole('form', { name: 'Audit filters' })
    await form.getByLabel('Text').fill(filters.text ?? '')
    await form.getByLabel('Decided by').selectOption(filters.decidedBy ?? '')
    await form.getByLabel('Status').selectOption(filters.status ?? '')
    await form.getByLabel('Session').selectOption(filters.session ?? '')
    await form.getByRole('button', { name: 'Apply filters' }).click()
    // The panel is busy from the render in which the filters change until their answer is shown.
    await expect(this.panel().locator('section[aria-busy]')).toHaveAttribute('aria-busy', 'false')
    const table = this.panel().getByRole('table', { name: 'Audit log' })
    const none = this.panel().getByText('No audited commands match.')
    await expect(table.or(none).first()).toBeVisible()
    if ((await table.count()) === 0) return []
    return table.evaluate((element) => {
      const headers = Array.from(element.querySelectorAll('thead th')).map((th) => th.textContent ?? '')
      return Array.from(element.querySelectorAll('tbody tr')).map((row) =>
        Object.fromEntries(
          Array.from(row.querySelectorAll('td')).map((td, i) => [
            headers[i] ?? String(i),
            td.textContent ?? '',
          ]),
        ),
      )
    })
  }

  private async facts(list: Locator, timeoutMs = 10_000): Promise<Record<string, string>> {
    await expect(list).toBeVisible({ timeout: timeoutMs })
    const fields = await list
      .locator('dd[data-field]')
      .evaluateAll((nodes) =>
        nodes.map((node) => [node.getAttribute('data-field') ?? '', node.textContent ?? ''] as const),
      )
    return Object.fromEntries(fields)
  }
}
