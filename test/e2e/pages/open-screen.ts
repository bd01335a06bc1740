import { expect, type Page } from '@playwright/test'

export type ScreenName = 'Session' | 'Tasks' | 'Approvals' | 'Settings'

/** Clicks a main nav link (the Approvals link may carry a badge, hence the prefix match). */
export async function openScreen(page: Page, screen: ScreenName): Promise<void> {
  const link = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: new RegExp(`^${screen}`) })
  if ((await link.getAttribute('aria-current')) !== 'page') await link.click()
  await expect(link).toHaveAttribute('aria-current', 'page')
}
