import { usePendingApprovals } from '../approvals/PendingApprovalsProvider'
import { SCREENS, type ScreenId } from '../routes'

/** The app's main navigation; the Approvals link carries the live count of pending approvals. */
export function MainNav({ screen, onSelect }: { screen: ScreenId; onSelect: (screen: ScreenId) => void }) {
  const pendingCount = usePendingApprovals().pending?.length ?? 0
  return (
    <nav className="app-nav" aria-label="Main">
      <div className="brand">Shellgate</div>
      <ul>
        {SCREENS.map(({ id, label }) => (
          <li key={id}>
            <a
              href={`#/${id}`}
              aria-current={screen === id ? 'page' : undefined}
              onClick={() => onSelect(id)}
            >
              {label}
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
  )
}
