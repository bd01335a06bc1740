import { usePendingApprovals } from '../approvals/PendingApprovalsProvider'
import { SCREENS, type ScreenId } from '../routes'
import { useTasks } from '../tasks/TasksProvider'
import { ModeSwitch } from './ModeSwitch'

/**
 * The app's frame: navigation, the live count of pending approvals and of running tasks, and the
 * permission mode with its switch.
 */
export function MainNav({ screen, onSelect }: { screen: ScreenId; onSelect: (screen: ScreenId) => void }) {
  const pendingCount = usePendingApprovals().pending?.length ?? 0
  const runningCount = useTasks().tasks?.filter((task) => task.status === 'running').length ?? 0
  return (
    <header className="app-nav">
      <div className="brand">Shellgate</div>
      <ModeSwitch />
      <nav aria-label="Main">
        <ul>
          {SCREENS.map(({ id, label }) => (
            <li key={id}>
              <a
                href={`#/${id}`}
                aria-current={screen === id ? 'page' : undefined}
                onClick={() => onSelect(id)}
              >
                {label}
                {id === 'tasks' && runningCount > 0 && ' '}
                {id === 'tasks' && runningCount > 0 && (
                  <span className="badge badge-info" data-testid="tasks-badge">
                    {runningCount}
                    <span className="visually-hidden"> running</span>
                  </span>
                )}
                {id === 'approvals' && pendingCount > 0 && ' '}
                {id === 'approvals' && pendingCount > 0 && (
                  <span className="badge" data-testid="approvals-badge">
                    {pendingCount}
                    <span className="visually-hidden"> pending</span>
                  </span>
                )}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  )
}
