/**
 * A system notification for a new approval, only when nobody is looking at the window: a person
 * who is looking sees the card and the badge, and a notification then is just noise.
 * The body carries the command (cut to a line) but never its output.
 */
export function approvalNotification(
  approval: { command: string; cwd: string },
  windowFocused: boolean,
): { title: string; body: string } | null {
  if (windowFocused) return null
  const firstLine = approval.command.split('\n', 1)[0] ?? ''
  const command = firstLine.length > 120 ? `${firstLine.slice(0, 119)}…` : firstLine
  const more = approval.command.includes('\n') ? ' …' : ''
  return { title: 'Shellgate: a command needs your approval', body: `${command}${more}\nin ${approval.cwd}` }
}
