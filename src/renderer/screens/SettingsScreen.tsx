import { Tabs } from '../components/Tabs'
import { SETTINGS_SECTIONS, useSettingsSection } from '../settings-state/settings-sections'
import { NotificationsPanel } from '../notifications/NotificationsControl'
import { AboutPanel } from './settings/AboutPanel'
import { AgentsPanel } from './settings/AgentsPanel'
import { AuditPanel } from './settings/AuditPanel'
import { EnvironmentPanel } from './settings/EnvironmentPanel'
import { NetworkPanel } from './settings/NetworkPanel'
import { PermissionsPanel } from './settings/PermissionsPanel'
import { SandboxPanel } from './settings/SandboxPanel'
import { ShellPanel } from './settings/ShellPanel'

const PANEL_ID = 'settings-panel'

export function SettingsScreen() {
  const [section, setSection] = useSettingsSection()
  return (
    <section className="screen" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <Tabs
        label="Settings sections"
        tabs={SETTINGS_SECTIONS}
        selected={section}
        onSelect={setSection}
        panelId={PANEL_ID}
      />
      <div id={PANEL_ID} role="tabpanel" aria-label={section} className="tab-panel">
        {section === 'Shell' && <ShellPanel />}
        {section === 'Permissions' && <PermissionsPanel />}
        {section === 'Network' && <NetworkPanel />}
        {section === 'Environment' && <EnvironmentPanel />}
        {section === 'Sandbox' && <SandboxPanel />}
        {section === 'Agents' && <AgentsPanel />}
        {section === 'Notifications' && <NotificationsPanel />}
        {section === 'Audit' && <AuditPanel />}
        {section === 'About' && <AboutPanel />}
      </div>
    </section>
  )
}
