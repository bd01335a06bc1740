import type { CSSProperties } from 'react'
import { cssColor } from './ansi-colors'
import type { AnsiColor, AnsiSegment } from './parse-ansi'

function classFor(prefix: 'fg' | 'bg', color: AnsiColor | null): string | null {
  return color?.kind === 'palette' && color.index < 16 ? `ansi-${prefix}-${color.index}` : null
}

/**
 * One styled run of output. Text goes in as a React child (escaped), never as HTML; styles are set
 * through the CSSOM, which the page's CSP allows, unlike inline style attributes in markup.
 */
export function AnsiSpan({ segment }: { segment: AnsiSegment }) {
  const { style } = segment
  const fg = style.inverse ? style.bg : style.fg
  const bg = style.inverse ? style.fg : style.bg
  const classes = [
    classFor('fg', fg) ?? (style.inverse ? 'ansi-fg-inverse' : null),
    classFor('bg', bg) ?? (style.inverse ? 'ansi-bg-inverse' : null),
    style.bold && 'ansi-bold',
    style.dim && 'ansi-dim',
    style.italic && 'ansi-italic',
    style.underline && 'ansi-underline',
    style.strike && 'ansi-strike',
  ].filter(Boolean)
  const css: CSSProperties = {}
  const fgCss = fg && cssColor(fg)
  const bgCss = bg && cssColor(bg)
  if (fgCss) css.color = fgCss
  if (bgCss) css.backgroundColor = bgCss
  if (classes.length === 0 && !fgCss && !bgCss) return <>{segment.text}</>
  return (
    <span className={classes.join(' ') || undefined} style={fgCss || bgCss ? css : undefined}>
      {segment.text}
    </span>
  )
}
