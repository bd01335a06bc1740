import { useLayoutEffect, useRef, useState } from 'react'
import { AnsiSpan } from '../ansi/AnsiSpan'
import type { AnsiDocument } from '../ansi/ansi-document'
import { visibleWindow } from './visible-window'

/** Must match `.output-line` in styles.css: every row has exactly this height. */
export const OUTPUT_LINE_HEIGHT_PX = 18

interface VirtualOutputProps {
  document: AnsiDocument
  label: string
  /** Keep the view pinned to the newest line while the user has not scrolled up. */
  follow?: boolean
  viewportPx?: number
}

/**
 * Output of any length in a fixed-height scroller that renders only the rows in view, so a 4 MiB
 * log costs the DOM a few dozen rows. Focusable, so the keyboard can scroll it.
 */
export function VirtualOutput({ document, label, follow = false, viewportPx = 320 }: VirtualOutputProps) {
  const scroller = useRef<HTMLElement>(null)
  const [scrollTop, setScrollTop] = useState(0)
  const pinned = useRef(true)
  const totalPx = document.lineCount * OUTPUT_LINE_HEIGHT_PX
  const height = Math.min(viewportPx, Math.max(totalPx, OUTPUT_LINE_HEIGHT_PX) + 2)

  // biome-ignore lint/correctness/useExhaustiveDependencies: totalPx stands for "new lines arrived", the moment to re-pin.
  useLayoutEffect(() => {
    const element = scroller.current
    if (!follow || !element || !pinned.current) return
    element.scrollTop = element.scrollHeight
    setScrollTop(element.scrollTop)
  }, [follow, totalPx])

  const { first, end } = visibleWindow(scrollTop, height, OUTPUT_LINE_HEIGHT_PX, document.lineCount)
  return (
    <section
      ref={scroller}
      className="output-scroller"
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to scroll by keyboard.
      tabIndex={0}
      style={{ height }}
      onScroll={(event) => {
        const element = event.currentTarget
        pinned.current =
          element.scrollTop + element.clientHeight >= element.scrollHeight - OUTPUT_LINE_HEIGHT_PX
        setScrollTop(element.scrollTop)
      }}
    >
      <div className="output-canvas" style={{ height: totalPx }}>
        <div className="output-rows" style={{ transform: `translateY(${first * OUTPUT_LINE_HEIGHT_PX}px)` }}>
          {document.lines(first, end).map((line, offset) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the line number is the row's identity.
            <div className="output-line" key={first + offset}>
              {line.map((segment, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: segments of a line have no identity beyond their position.
                <AnsiSpan key={index} segment={segment} />
              ))}
            </div>
          ))}
        </div>
      </div>
    </section>
  )
}
