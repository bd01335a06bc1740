import { SCREENS, useScreen } from './routes'
import { ApprovalsScreen } from './screens/ApprovalsScreen'
import { SessionScreen } from './screens/SessionScreen'
import { SettingsScreen } from './screens/SettingsScreen'
import { TasksScreen } from './screens/TasksScreen'

export function App() {
  const [screen, setScreen] = useScreen()
  return (
    <div className="app-frame">
      <nav className="app-nav" aria-label="Main">
        <div className="brand">Shellgate</div>
        <ul>
          {SCREENS.map(({ id, label }) => (
            <li key={id}>
              <a
                href={`#/${id}`}
                aria-current={screen === id ? 'page' : undefined}
                onClick={() => setScreen(id)}
              >
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main className="app-main">
        {screen === 'session' && <SessionScreen />}
        {screen === 'tasks' && <TasksScreen />}
        {screen === 'approvals' && <ApprovalsScreen />}
        {screen === 'settings' && <SettingsScreen />}
      </main>
    </div>
  )
}
