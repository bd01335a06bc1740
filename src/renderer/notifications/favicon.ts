import { useEffect } from 'react'
import { badgedIconHref } from './favicon-badge'

/** Keeps the tab's icon showing the count of waiting approvals. */
export function useFaviconBadge(count: number): void {
  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]')
    if (!link) return
    link.dataset.plainHref ??= link.getAttribute('href') ?? ''
    link.setAttribute('href', badgedIconHref(count, link.dataset.plainHref))
    link.dataset.count = String(count)
    if (count > 0) link.setAttribute('type', 'image/svg+xml')
  }, [count])
}
