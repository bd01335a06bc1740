import { useRef, useState } from 'react'
import { useEvent } from '../events/use-event'
import { useSettings } from '../settings-state/SettingsProvider'

interface Notice {
  id: number
  level: 'info' | 'warning' | 'error'
  message: string
}

/**
 * Shown at the top of every screen while a settings file could not be read (it was kept as .bak and
 * defaults are in use), and for app.notice warnings, so nothing is lost silently.
 */
export function WarningBanner() {
  const { snapshot } = useSettings()
  const [notices, setNotices] = useState<Notice[]>([])
  const nextId = useRef(0)
  useEvent('app.notice', ({ level, message }) => {
    if (level === 'info') return
    const id = nextId.current++
    setNotices((list) => [...list, { id, level, message }])
  })
  const warnings = snapshot?.warnings ?? []
  if (warnings.length === 0 && notices.length === 0) return null
  return (
    <section className="warning-banner" aria-label="Warnings" role="alert">
      <ul>
        {warnings.map((warning) => (
          <li key={warning.file}>
            {/* main words each reason as a predicate of the file: "is not valid JSON: …" */}
            <strong>{warning.file}</strong> {warning.message}.{' '}
            {warning.backup ? (
              <>
                It was kept as <code>{warning.backup}</code> and defaults are in use.
              </>
            ) : (
              'Defaults are in use.'
            )}
          </li>
        ))}
        {notices.map((notice) => (
          <li key={notice.id}>
            {notice.message}{' '}
            <button
              type="button"
              className="link-button"
              onClick={() => setNotices((list) => list.filter((n) => n.id !== notice.id))}
            >
              Dismiss
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}
