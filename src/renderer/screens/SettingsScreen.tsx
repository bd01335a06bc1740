import { AboutPanel } from './settings/AboutPanel'

export function SettingsScreen() {
  return (
    <section className="screen" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <AboutPanel />
    </section>
  )
}
