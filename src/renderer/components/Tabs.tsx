import { type KeyboardEvent, useId, useRef } from 'react'

/**
 * WAI-ARIA tabs: one tab in the Tab order (the selected one), arrows/Home/End move between tabs and
 * select, so the whole strip costs one Tab press.
 */
export function Tabs<T extends string>({
  label,
  tabs,
  selected,
  onSelect,
  panelId,
}: {
  label: string
  tabs: readonly T[]
  selected: T
  onSelect: (tab: T) => void
  panelId: string
}) {
  const idPrefix = useId()
  const list = useRef<HTMLDivElement>(null)
  const onKeyDown = (event: KeyboardEvent) => {
    const index = tabs.indexOf(selected)
    const target =
      event.key === 'ArrowRight'
        ? (index + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : null
    if (target === null) return
    event.preventDefault()
    const next = tabs[target]
    if (next === undefined) return
    onSelect(next)
    list.current?.querySelectorAll<HTMLElement>('[role="tab"]')[target]?.focus()
  }
  return (
    <div ref={list} role="tablist" aria-label={label} className="tabs" onKeyDown={onKeyDown}>
      {tabs.map((tab) => (
        <button
          key={tab}
          id={`${idPrefix}-${tab}`}
          type="button"
          role="tab"
          aria-selected={tab === selected}
          aria-controls={panelId}
          tabIndex={tab === selected ? 0 : -1}
          onClick={() => onSelect(tab)}
        >
          {tab}
        </button>
      ))}
    </div>
  )
}
