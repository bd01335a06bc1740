import { useSettings } from '../settings-state/SettingsProvider'
import { useRequest } from '../use-request'

/**
 * On every screen while commands would run without the sandbox the settings ask for (auto with no
 * working backend) or would be refused (strict with none): issue 12's "visible warning".
 */
export function SandboxBanner() {
  const { snapshot } = useSettings()
  const status = useRequest('sandbox.status', {})
  const mode = snapshot?.user.sandbox.mode
  if (!status.data || status.data.backend.available || mode === undefined || mode === 'off') return null
  return (
    <p className="yolo-banner" role="alert" data-testid="sandbox-banner">
      <strong>No sandbox:</strong> {status.data.summary}. <a href="#/settings/sandbox">Settings → Sandbox</a>
    </p>
  )
}
