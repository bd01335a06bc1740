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
 * defaults are in use, or the last good settings stay in force), and for app.notice warnings, so
 * nothing is lost silently. A notice about a settings file is not kept here: it makes the snapshot
 * load again, whose warnings say it while it lasts and drop it once the file is fixed.
 */
export function WarningBanner() {
  const { snapshot, reload } = useSettings()
  const [notices, setNotices] = useState<Notice[]>([])
  const nextId = useRef(0)
  const settingsFiles = Object.values(snapshot?.files ?? {}).filter((file): file is string => Boolean(file))
  useEvent('app.notice', ({ level, message }) => {
    if (level === 'info') return
    if (settingsFiles.some((file) => message.startsWith(`${file} `))) {
      reload()
      return
    }
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
