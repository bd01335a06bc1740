import { LOGIN_REFUSAL_MESSAGES } from '../../shared/browser-login'
import { useConnection } from './ConnectionProvider'

/** Says so while the server is out of reach; requests made meanwhile fail with "cancelled". */
export function ConnectionBanner() {
  const { status, refusal } = useConnection()
  if (status === 'open') return null
  if (status === 'refused' && refusal) {
    return (
      <p className="connection-banner" role="alert" data-refusal={refusal}>
        {LOGIN_REFUSAL_MESSAGES[refusal]}
      </p>
    )
  }
  return (
    <p className="connection-banner" role="status">
      Not connected to Shellgate; reconnecting… If Shellgate was restarted, run `shellgate ui` for a fresh
      address (each start has new keys).
    </p>
  )
}
