import { useState } from 'react'
import { hiddenCharactersNotice, revealInvisible } from '../../shared/reveal-invisible'

/** Past this many lines a command is folded, so the card's answers stay in view. */
export const FOLD_AFTER_LINES = 12

/**
 * A command exactly once, with invisible and direction-changing characters revealed (and said so),
 * folded past FOLD_AFTER_LINES lines behind "Show all (N lines)".
 */
export function CommandText({
  command,
  className,
  as = 'pre',
  urgent = false,
}: {
  command: string
  className?: string
  as?: 'pre' | 'code'
  /** On a card waiting for an answer the notice is an alert: it must be read before approving. */
  urgent?: boolean
}) {
  const [unfolded, setUnfolded] = useState(false)
  const revealed = revealInvisible(command)
  const lines = revealed.text.split('\n')
  const folded = !unfolded && lines.length > FOLD_AFTER_LINES
  const shown = folded ? lines.slice(0, FOLD_AFTER_LINES).join('\n') : revealed.text
  const Tag = as
  return (
    <>
      <Tag className={className} data-field="command" data-folded={folded ? '' : undefined}>
        {shown}
        {folded && '\n…'}
      </Tag>
      {lines.length > FOLD_AFTER_LINES && (
        <button type="button" className="link-button" onClick={() => setUnfolded(!unfolded)}>
          {unfolded ? 'Show less' : `Show all (${lines.length} lines)`}
        </button>
      )}
      {revealed.hidden > 0 && (
        <p role={urgent ? 'alert' : 'note'}>{hiddenCharactersNotice(revealed.hidden)}</p>
      )}
    </>
  )
}
