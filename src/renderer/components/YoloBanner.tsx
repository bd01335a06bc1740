import { useSettings } from '../settings-state/SettingsProvider'

/**
 * On every screen while yolo is on, and not dismissible: a mode where nothing asks must never be
 * forgotten about.
 */
export function YoloBanner() {
  const { snapshot } = useSettings()
  if (snapshot?.user.permissions.mode !== 'yolo') return null
  return (
    <p className="yolo-banner" data-testid="yolo-banner">
      <strong>yolo mode:</strong> commands run without asking. <a href="#/settings">Change in Settings</a>
    </p>
  )
}
