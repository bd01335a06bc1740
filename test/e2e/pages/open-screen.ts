import { expect, type Page } from '@playwright/test'

export type ScreenName = 'Session' | 'Tasks' | 'Approvals' | 'Settings'

/** The nav label of each screen: the Session screen is the list of conversations. */
export const SCREEN_LABEL: Record<ScreenName, string> = {
  Session: 'Conversations',
  Tasks: 'Tasks',
  Approvals: 'Approvals',
  Settings: 'Settings',
}

/** Clicks a main nav link (the Approvals link may carry a badge, hence the prefix match). */
export async function openScreen(page: Page, screen: ScreenName): Promise<void> {
  const link = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: new RegExp(`^${SCREEN_LABEL[screen]}`) })
  if ((await link.getAttribute('aria-current')) !== 'page') await link.click()
  await expect(link).toHaveAttribute('aria-current', 'page')
}
