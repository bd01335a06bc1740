/** The count on the tab's icon; past this it reads "9+" so it still fits. */
const BADGE_MAX = 9

/**
 * The app icon with the number of waiting approvals in a red disc, as an SVG data URL (the CSP
 * allows data: images): a pinned or background tab shows it without a word of the title.
 */
export function badgedIconHref(count: number, plainHref: string): string {
  if (count <= 0) return plainHref
  const label = count > BADGE_MAX ? `${BADGE_MAX}+` : String(count)
  const svg = [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">',
    '<rect width="64" height="64" rx="12" fill="#1f2430"/>',
    '<path d="M10 18l12 10-12 10" fill="none" stroke="#7aa2ff" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>',
    '<circle cx="42" cy="42" r="22" fill="#d92d20"/>',
    `<text x="42" y="51" text-anchor="middle" font-family="Arial,sans-serif" font-weight="700" font-size="${label.length > 1 ? 22 : 28}" fill="#fff">${label}</text>`,
    '</svg>',
  ].join('')
  return `data:image/svg+xml,${encodeURIComponent(svg)}`
}
