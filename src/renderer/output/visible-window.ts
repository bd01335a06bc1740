/** Extra lines rendered above and below the viewport so fast scrolling does not flash blank rows. */
export const OVERSCAN_LINES = 20

/** Which lines a fixed-line-height scroller must render: [first, end) in line indexes. */
export function visibleWindow(
  scrollTopPx: number,
  viewportPx: number,
  lineHeightPx: number,
  lineCount: number,
): { first: number; end: number } {
  const first = Math.max(0, Math.floor(scrollTopPx / lineHeightPx) - OVERSCAN_LINES)
  const end = Math.min(lineCount, Math.ceil((scrollTopPx + viewportPx) / lineHeightPx) + OVERSCAN_LINES)
  return { first, end: Math.max(first, end) }
}
