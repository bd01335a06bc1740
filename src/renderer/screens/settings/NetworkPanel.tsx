import { useSettings } from '../../settings-state/SettingsProvider'
import { NetworkForm } from './NetworkForm'
import { UrlCheck } from './UrlCheck'

export function NetworkPanel() {
  const { snapshot, error } = useSettings()
  return (
    <section className="panel" aria-labelledby="network-title">
      <h2 id="network-title">Network</h2>
      {error && <p role="alert">Could not load settings: {error}</p>}
      {snapshot && <NetworkForm />}
      <UrlCheck />
    </section>
  )
}
