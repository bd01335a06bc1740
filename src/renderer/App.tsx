import { AnswerNotice } from './approvals/AnswerNotice'
import { PendingApprovalsProvider } from './approvals/PendingApprovalsProvider'
import { MainNav } from './components/MainNav'
import { ConnectionBanner } from './connection/ConnectionBanner'
import { ScreenErrorBoundary } from './components/ScreenErrorBoundary'
import { SandboxBanner } from './components/SandboxBanner'
import { WarningBanner } from './components/WarningBanner'
import { YoloBanner } from './components/YoloBanner'
import { useScreen } from './routes'
import { ApprovalsScreen } from './screens/ApprovalsScreen'
import { SessionScreen } from './screens/SessionScreen'
import { SettingsScreen } from './screens/SettingsScreen'
import { TasksScreen } from './screens/TasksScreen'
import { NotificationsProvider } from './notifications/NotificationsProvider'
import { LiveCallsProvider } from './session/LiveCallsProvider'
import { SessionsProvider } from './session/SessionsProvider'
import { SettingsProvider } from './settings-state/SettingsProvider'
import { TasksProvider } from './tasks/TasksProvider'
import { WorkspaceProvider } from './workspace/WorkspaceProvider'

export function App() {
  const [screen, setScreen] = useScreen()
  return (
    <WorkspaceProvider>
      <SessionsProvider>
        <SettingsProvider>
          <PendingApprovalsProvider>
            <LiveCallsProvider>
              <NotificationsProvider>
                <TasksProvider>
                  <div className="app-frame">
                    <MainNav screen={screen} onSelect={setScreen} />
                    <main className="app-main">
                      <YoloBanner />
                      <SandboxBanner />
                      <ConnectionBanner />
                      <WarningBanner />
                      <AnswerNotice />
                      <ScreenErrorBoundary key={screen}>
                        {screen === 'session' && <SessionScreen />}
                        {screen === 'tasks' && <TasksScreen />}
                        {screen === 'approvals' && <ApprovalsScreen />}
                        {screen === 'settings' && <SettingsScreen />}
                      </ScreenErrorBoundary>
                    </main>
                  </div>
                </TasksProvider>
              </NotificationsProvider>
            </LiveCallsProvider>
          </PendingApprovalsProvider>
        </SettingsProvider>
      </SessionsProvider>
    </WorkspaceProvider>
  )
}
